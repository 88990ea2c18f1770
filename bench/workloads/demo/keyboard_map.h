// Keycodes to keysyms by the core protocol's rules, from the server's
// keyboard mapping (GetKeyboardMapping) and modifier mapping: Shift and
// Caps Lock choose the level, Mode_switch the second group (columns 2-3),
// ISO_Level3_Shift (AltGr) the third and fourth levels (columns 4-5, where
// XKB's core view puts them), Num Lock the keypad's digits. The maps are
// read again on MappingNotify, which voxl's input causes whenever it binds
// a spare keycode to a character the layout lacks.
//
// Not thread-safe: the X thread only. Borrows the connection. The
// constructor and reload() make two round trips each.
#pragma once

#include <xcb/xcb.h>

#include <cstdint>
#include <vector>

namespace voxl::demo {

class KeyboardMap {
 public:
  explicit KeyboardMap(xcb_connection_t* c);

  void reload();
  // The keysym a KeyPress of `keycode` with modifier `state` types; 0 for
  // none.
  uint32_t keysym(uint8_t keycode, uint16_t state) const;

 private:
  uint32_t at(uint8_t keycode, int column) const;

  xcb_connection_t* c_;
  uint8_t min_keycode_ = 8;
  int per_keycode_ = 0;
  std::vector<uint32_t> syms_;  // per_keycode_ keysyms for each keycode from min_keycode_
  uint16_t mode_switch_mask_ = 0, level3_mask_ = 0, num_lock_mask_ = 0;
};

}  // namespace voxl::demo
