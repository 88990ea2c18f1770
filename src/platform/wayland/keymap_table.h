// The keymap voxl gives a Wayland compositor for its virtual keyboard: one
// key per keysym, so any character types whatever the desktop's layout.
// Keysyms are bound to keycodes as they are first needed; the modifiers
// and the keys people press most are bound from the start, so the keymap
// rarely changes while someone types. When every keycode is taken, the key
// used longest ago that is not held down gives its keycode up.
//
// Pure: no Wayland here. Threads: one owner.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace voxl::platform::wayland {

class KeymapTable {
 public:
  KeymapTable();

  struct Binding {
    uint32_t evdev_code = 0;  // what the virtual keyboard's key request takes
    bool keymap_changed = false;  // upload text() before pressing it
  };
  // The key for `keysym`, bound now if it was not; nullopt when every
  // keycode is held down.
  std::optional<Binding> bind(uint32_t keysym);
  // Whether the key for `keysym` is held down (press and release track it).
  void set_down(uint32_t keysym, bool down);
  bool is_down(uint32_t keysym) const;

  // The modifiers the keys held down set, as the keymap's real modifier
  // bits (Shift 0x1, Lock 0x2, Control 0x4, Mod1 0x8 ... Mod5 0x80): the
  // compositor leaves a virtual keyboard's modifiers to its client.
  uint32_t depressed_modifiers() const;
  // The bit a modifier's name has (modifier_mask("Lock") is 0x2).
  static uint32_t modifier_mask(const char* name);

  // The keymap in XKB's text form, NUL not included.
  std::string text() const;
  size_t bound() const;

  static constexpr uint32_t kFirstKeycode = 9;  // XKB keycodes; evdev is 8 less
  static constexpr uint32_t kLastKeycode = 255;

 private:
  struct Slot {
    uint32_t keysym = 0;  // 0: free
    uint64_t last_used = 0;
    bool down = false;
    bool pinned = false;  // modifiers and locks never move
  };
  Slot* find(uint32_t keysym);
  const Slot* find(uint32_t keysym) const;

  std::vector<Slot> slots_;  // index + kFirstKeycode is the XKB keycode
  uint64_t clock_ = 0;
};

}  // namespace voxl::platform::wayland
