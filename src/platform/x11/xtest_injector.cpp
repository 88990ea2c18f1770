#include "platform/x11/xtest_injector.h"

#include <xcb/xcb.h>
#include <xcb/xtest.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "base/utf8.h"
#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"
#include "input/key_mapping.h"
#include "input/keysyms.h"

namespace voxl::platform::x11 {

namespace {

using platform::x11::XcbPtr;

// Printable keysyms depend on the shift level; function keys, modifiers and
// the keypad do not (their shifted column is empty or the same key).
bool level_matters(uint32_t keysym) { return keysym < 0xff00 || keysym >= input::keysym::kUnicodeOffset; }

}  // namespace

XTestInjector::XTestInjector(const std::string& display, Logger log)
    : conn_(std::make_unique<platform::x11::XcbConnection>(display)), log_(std::move(log)) {
  xcb_connection_t* c = conn_->get();
  const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c, &xcb_test_id);
  if (!ext || !ext->present)
    throw std::runtime_error("X display " + conn_->display_name() + " lacks the XTEST extension: no input");
  const xcb_setup_t* setup = xcb_get_setup(c);
  min_keycode_ = setup->min_keycode;
  max_keycode_ = setup->max_keycode;
  load_keymap();
  load_modifiers();
  // A keycode with no keysym in any column is free to bind.
  for (int kc = min_keycode_; kc <= max_keycode_; ++kc) {
    const auto first = keymap_.begin() + (kc - min_keycode_) * per_keycode_;
    if (std::all_of(first, first + per_keycode_, [](uint32_t k) { return k == 0; }))
      spares_.push_back({uint8_t(kc), 0, 0});
  }
  log_->debug("input: XTest on {}, {} keysyms per keycode, {} spare keycodes", conn_->display_name(),
              per_keycode_, spares_.size());
}

XTestInjector::~XTestInjector() {
  for (const auto& [keysym, keycode] : held_keys_) fake(XCB_KEY_RELEASE, keycode);
  for (int b : held_buttons_) fake(XCB_BUTTON_RELEASE, uint8_t(b));
  for (const auto& s : spares_)
    if (s.keysym) set_mapping(s.keycode, 0);
  if (!conn_->failed()) conn_->sync();
}

void XTestInjector::load_keymap() {
  xcb_connection_t* c = conn_->get();
  const int count = max_keycode_ - min_keycode_ + 1;
  XcbPtr<xcb_get_keyboard_mapping_reply_t> r(
      xcb_get_keyboard_mapping_reply(c, xcb_get_keyboard_mapping(c, min_keycode_, uint8_t(count)), nullptr));
  if (!r) throw std::runtime_error("cannot read the keyboard mapping of " + conn_->display_name());
  per_keycode_ = r->keysyms_per_keycode;
  const xcb_keysym_t* syms = xcb_get_keyboard_mapping_keysyms(r.get());
  const int n = xcb_get_keyboard_mapping_keysyms_length(r.get());
  keymap_.assign(syms, syms + n);
  keymap_.resize(size_t(count) * size_t(per_keycode_), 0);
}

void XTestInjector::load_modifiers() {
  xcb_connection_t* c = conn_->get();
  XcbPtr<xcb_get_modifier_mapping_reply_t> r(
      xcb_get_modifier_mapping_reply(c, xcb_get_modifier_mapping(c), nullptr));
  const auto num_lock = find_any_level(input::keysym::kNumLock);
  if (!r || !num_lock) return;
  const xcb_keycode_t* codes = xcb_get_modifier_mapping_keycodes(r.get());
  const int per = r->keycodes_per_modifier;
  for (int mod = 0; mod < 8; ++mod)
    for (int i = 0; i < per; ++i)
      if (codes[mod * per + i] == *num_lock) num_lock_mask_ = uint16_t(1u << mod);
}

std::optional<uint8_t> XTestInjector::find(uint32_t keysym, int level) const {
  if (level >= per_keycode_) return std::nullopt;
  for (int kc = min_keycode_; kc <= max_keycode_; ++kc)
    if (keymap_[size_t(kc - min_keycode_) * size_t(per_keycode_) + size_t(level)] == keysym) return uint8_t(kc);
  return std::nullopt;
}

std::optional<uint8_t> XTestInjector::find_any_level(uint32_t keysym) const {
  for (int level = 0; level < std::min(per_keycode_, 2); ++level)
    if (auto kc = find(keysym, level)) return kc;
  return std::nullopt;
}

bool XTestInjector::shift_held() const {
  return held_keys_.contains(input::keysym::kShiftL) || held_keys_.contains(input::keysym::kShiftR);
}

bool XTestInjector::level3_held() const { return held_keys_.contains(input::keysym::kIsoLevel3Shift); }

std::optional<uint8_t> XTestInjector::keycode_for(uint32_t keysym, bool for_typing) {
  if (!level_matters(keysym)) {
    if (auto kc = find_any_level(keysym)) return kc;
    return bind_spare(keysym);
  }
  // AltGr selects columns past the first two: only a binding in every
  // column is sure to give this keysym then.
  if (!level3_held()) {
    const int level = (!for_typing && shift_held()) ? 1 : 0;
    if (auto kc = find(keysym, level)) return kc;
  }
  // The spare's binding wins over one that would need Shift pressed.
  for (auto& s : spares_)
    if (s.keysym == keysym) {
      s.used = ++uses_;
      return s.keycode;
    }
  return bind_spare(keysym);
}

std::optional<uint8_t> XTestInjector::bind_spare(uint32_t keysym) {
  for (auto& s : spares_)
    if (s.keysym == keysym) {
      s.used = ++uses_;
      return s.keycode;
    }
  Spare* pick = nullptr;
  for (auto& s : spares_) {
    const bool held = std::any_of(held_keys_.begin(), held_keys_.end(),
                                  [&](const auto& h) { return h.second == s.keycode; });
    if (held) continue;
    if (!pick || s.used < pick->used) pick = &s;
  }
  if (!pick) return std::nullopt;
  pick->keysym = keysym;
  pick->used = ++uses_;
  set_mapping(pick->keycode, keysym);
  return pick->keycode;
}

void XTestInjector::set_mapping(uint8_t keycode, uint32_t keysym) {
  std::vector<xcb_keysym_t> syms(size_t(per_keycode_), keysym);
  xcb_change_keyboard_mapping(conn_->get(), 1, keycode, uint8_t(per_keycode_), syms.data());
  std::copy(syms.begin(), syms.end(), keymap_.begin() + (keycode - min_keycode_) * per_keycode_);
  // Applications pick the new mapping up from MappingNotify; the server has
  // it before any key event sent after this.
  conn_->sync();
}

void XTestInjector::fake(uint8_t type, uint8_t detail, int x, int y) {
  xcb_test_fake_input(conn_->get(), type, detail, XCB_CURRENT_TIME, conn_->root(), int16_t(x), int16_t(y), 0);
}

void XTestInjector::tap(uint8_t keycode) {
  fake(XCB_KEY_PRESS, keycode);
  fake(XCB_KEY_RELEASE, keycode);
}

input::InputStatus XTestInjector::key(uint32_t keysym, bool down) {
  if (conn_->failed()) return input::InputStatus::kFailed;
  if (!down) {
    const auto it = held_keys_.find(keysym);
    if (it == held_keys_.end()) return input::InputStatus::kOk;  // never pressed, or released already
    fake(XCB_KEY_RELEASE, it->second);
    held_keys_.erase(it);
    xcb_flush(conn_->get());
    return input::InputStatus::kOk;
  }
  // A second press of a held key is a browser repeat; X repeats by itself.
  if (held_keys_.contains(keysym)) return input::InputStatus::kOk;
  const auto kc = keycode_for(keysym, false);
  if (!kc) return input::InputStatus::kNoSpareKeycode;
  fake(XCB_KEY_PRESS, *kc);
  held_keys_[keysym] = *kc;
  xcb_flush(conn_->get());
  return input::InputStatus::kOk;
}

input::InputStatus XTestInjector::type_text(std::string_view utf8) {
  if (conn_->failed()) return input::InputStatus::kFailed;
  const auto cps = decode_utf8(utf8);
  if (!cps) return input::InputStatus::kUnknownKey;
  const auto shift = find_any_level(input::keysym::kShiftL);
  input::InputStatus status = input::InputStatus::kOk;
  for (char32_t cp : *cps) {
    const auto keysym = input::keysym_for_char(cp);
    if (!keysym) {
      status = input::InputStatus::kUnknownKey;
      break;
    }
    // Plain keys as they are; shifted ones with Shift around them unless
    // the caller holds it; everything else on a spare keycode.
    std::optional<uint8_t> kc;
    bool add_shift = false;
    if (!level_matters(*keysym) || (!shift_held() && !level3_held() && find(*keysym, 0))) {
      kc = keycode_for(*keysym, true);
    } else if (!level3_held() && shift && find(*keysym, 1)) {
      kc = find(*keysym, 1);
      add_shift = !shift_held();
    } else {
      kc = bind_spare(*keysym);
    }
    if (!kc) {
      status = input::InputStatus::kNoSpareKeycode;
      break;
    }
    if (add_shift) fake(XCB_KEY_PRESS, *shift);
    tap(*kc);
    if (add_shift) fake(XCB_KEY_RELEASE, *shift);
  }
  xcb_flush(conn_->get());
  return status;
}

void XTestInjector::move(int x, int y) {
  // The server keeps the pointer on the screen; only the wire format's
  // range needs guarding here.
  fake(XCB_MOTION_NOTIFY, 0, std::clamp(x, 0, 32767), std::clamp(y, 0, 32767));
  xcb_flush(conn_->get());
}

void XTestInjector::button(int n, bool down) {
  if (n < 1 || n > 255) return;
  const auto it = std::find(held_buttons_.begin(), held_buttons_.end(), n);
  if (down == (it != held_buttons_.end())) return;
  if (down)
    held_buttons_.push_back(n);
  else
    held_buttons_.erase(it);
  fake(down ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE, uint8_t(n));
  xcb_flush(conn_->get());
}

void XTestInjector::scroll_notches(int dx, int dy) {
  const auto clicks = [this](int count, uint8_t button) {
    for (int i = 0; i < count; ++i) {
      fake(XCB_BUTTON_PRESS, button);
      fake(XCB_BUTTON_RELEASE, button);
    }
  };
  clicks(std::abs(dy), dy < 0 ? 4 : 5);
  clicks(std::abs(dx), dx < 0 ? 6 : 7);
  xcb_flush(conn_->get());
}

Size XTestInjector::desktop_size() const { return conn_->root_size(); }

bool XTestInjector::failed() const { return conn_->failed(); }

uint16_t XTestInjector::pointer_mask() {
  xcb_connection_t* c = conn_->get();
  XcbPtr<xcb_query_pointer_reply_t> r(xcb_query_pointer_reply(c, xcb_query_pointer(c, conn_->root()), nullptr));
  return r ? r->mask : 0;
}

std::optional<Point> XTestInjector::pointer_position() {
  xcb_connection_t* c = conn_->get();
  XcbPtr<xcb_query_pointer_reply_t> r(xcb_query_pointer_reply(c, xcb_query_pointer(c, conn_->root()), nullptr));
  if (!r || !r->same_screen) return std::nullopt;
  return Point{r->root_x, r->root_y};
}

bool XTestInjector::caps_lock() { return (pointer_mask() & XCB_MOD_MASK_LOCK) != 0; }

bool XTestInjector::num_lock() { return num_lock_mask_ && (pointer_mask() & num_lock_mask_) != 0; }

}  // namespace voxl::platform::x11
