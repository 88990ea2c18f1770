#include "keysym_text.h"

namespace voxl::demo {

namespace {

constexpr uint32_t kBackSpace = 0xff08, kTab = 0xff09, kReturn = 0xff0d, kKeypadEnter = 0xff8d;
constexpr uint32_t kKeypadSpace = 0xff80, kKeypadTab = 0xff89;
constexpr uint32_t kKeypadMultiply = 0xffaa, kKeypadDivide = 0xffaf, kKeypadEqual = 0xffbd;
constexpr uint32_t kKeypad0 = 0xffb0, kKeypad9 = 0xffb9;

KeyMeaning insert(char32_t c) { return {KeyMeaning::Action::kInsert, c}; }

}  // namespace

KeyMeaning key_meaning(uint32_t keysym) {
  using Action = KeyMeaning::Action;
  if (keysym == kBackSpace) return {Action::kBackspace, 0};
  if (keysym == kReturn || keysym == kKeypadEnter) return {Action::kNewline, 0};
  if (keysym == kTab || keysym == kKeypadTab || keysym == kKeypadSpace) return insert(U' ');
  if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff)) return insert(keysym);
  if (keysym >= 0x01000000 && keysym <= 0x0110ffff) {
    const char32_t c = keysym - 0x01000000;
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return {};  // control characters
    return insert(c);
  }
  // KP_Multiply .. KP_Divide and KP_0 .. KP_9 follow ASCII's order.
  if (keysym >= kKeypadMultiply && keysym <= kKeypadDivide) return insert(U'*' + (keysym - kKeypadMultiply));
  if (keysym >= kKeypad0 && keysym <= kKeypad9) return insert(U'0' + (keysym - kKeypad0));
  if (keysym == kKeypadEqual) return insert(U'=');
  if (keysym == 0x20ac) return insert(U'€');  // EuroSign, a keysym of its own
  // The legacy character ranges (Latin-2 to Korean and the 0x13xx
  // additions) type a character without saying which in Unicode here.
  if (keysym >= 0x100 && keysym <= 0x13ff) return insert(U'\ufffd');
  return {};  // function keys, modifiers, dead keys
}

uint32_t keysym_upper(uint32_t k) {
  if ((k >= 'a' && k <= 'z') || (k >= 0xe0 && k <= 0xfe && k != 0xf7)) return k - 0x20;
  return k;
}

uint32_t keysym_lower(uint32_t k) {
  if ((k >= 'A' && k <= 'Z') || (k >= 0xc0 && k <= 0xde && k != 0xd7)) return k + 0x20;
  return k;
}

}  // namespace voxl::demo
