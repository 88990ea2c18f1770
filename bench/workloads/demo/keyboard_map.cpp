#include "keyboard_map.h"

#include <cstdlib>

#include "keysym_text.h"

namespace voxl::demo {

namespace {

constexpr uint32_t kModeSwitch = 0xff7e, kLevel3Shift = 0xfe03, kNumLock = 0xff7f;

bool is_keypad(uint32_t k) { return k >= 0xff80 && k <= 0xffbd; }

}  // namespace

KeyboardMap::KeyboardMap(xcb_connection_t* c) : c_(c) { reload(); }

void KeyboardMap::reload() {
  const xcb_setup_t* setup = xcb_get_setup(c_);
  min_keycode_ = setup->min_keycode;
  const int count = setup->max_keycode - setup->min_keycode + 1;
  auto* keys = xcb_get_keyboard_mapping_reply(c_, xcb_get_keyboard_mapping(c_, min_keycode_, uint8_t(count)), nullptr);
  auto* mods = xcb_get_modifier_mapping_reply(c_, xcb_get_modifier_mapping(c_), nullptr);
  syms_.clear();
  per_keycode_ = 0;
  mode_switch_mask_ = level3_mask_ = num_lock_mask_ = 0;
  if (keys) {
    per_keycode_ = keys->keysyms_per_keycode;
    const xcb_keysym_t* s = xcb_get_keyboard_mapping_keysyms(keys);
    syms_.assign(s, s + xcb_get_keyboard_mapping_keysyms_length(keys));
  }
  if (mods) {
    // Eight modifiers, keycodes_per_modifier keycodes each (0: unused).
    const xcb_keycode_t* codes = xcb_get_modifier_mapping_keycodes(mods);
    const int per = mods->keycodes_per_modifier;
    for (int m = 0; m < 8; ++m)
      for (int i = 0; i < per; ++i) {
        const uint8_t code = codes[m * per + i];
        if (!code) continue;
        for (int col = 0; col < per_keycode_; ++col) {
          const uint32_t k = at(code, col);
          if (k == kModeSwitch) mode_switch_mask_ |= uint16_t(1 << m);
          if (k == kLevel3Shift) level3_mask_ |= uint16_t(1 << m);
          if (k == kNumLock) num_lock_mask_ |= uint16_t(1 << m);
        }
      }
  }
  std::free(keys);
  std::free(mods);
}

uint32_t KeyboardMap::at(uint8_t keycode, int column) const {
  if (keycode < min_keycode_ || column >= per_keycode_) return 0;
  const size_t i = size_t(keycode - min_keycode_) * size_t(per_keycode_) + size_t(column);
  return i < syms_.size() ? syms_[i] : 0;
}

uint32_t KeyboardMap::keysym(uint8_t keycode, uint16_t state) const {
  int base = 0;
  if ((state & level3_mask_) && per_keycode_ > 4) base = 4;
  else if (state & mode_switch_mask_) base = 2;
  uint32_t lower = at(keycode, base), upper = at(keycode, base + 1);
  if (base > 0 && !lower && !upper) lower = at(keycode, 0), upper = at(keycode, 1);
  // One keysym for a letter stands for both of its cases; for anything
  // else, for both levels.
  if (!upper) {
    upper = keysym_upper(lower);
    lower = keysym_lower(lower);
  }
  const bool shift = state & XCB_MOD_MASK_SHIFT;
  if ((state & num_lock_mask_) && is_keypad(upper)) return shift ? lower : upper;
  uint32_t k = shift ? upper : lower;
  if ((state & XCB_MOD_MASK_LOCK) && !shift) k = keysym_upper(k);
  return k;
}

}  // namespace voxl::demo
