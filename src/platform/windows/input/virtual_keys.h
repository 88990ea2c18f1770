// From voxl's neutral key codes (X11 keysyms) to Windows virtual keys, for
// the keys that are not characters: Return, Tab, arrows, F1-F24, modifiers
// left and right, the keypad, editing and lock keys, Super, Menu, media
// volume. `extended` is the KEYEVENTF_EXTENDEDKEY flag the key needs (the
// E0-prefixed scan codes: right Ctrl/Alt, the arrows and the editing block
// beside them, keypad Enter and Divide, the Windows and Menu keys...).
//
// Threads: any; pure functions.
#pragma once

#include <cstdint>
#include <optional>

namespace voxl::platform::windows {

struct VirtualKey {
  uint16_t vk = 0;
  bool extended = false;
};

// nullopt for character keysyms (Latin-1, 0x01xxxxxx Unicode) and keysyms
// with no Windows key.
std::optional<VirtualKey> named_virtual_key(uint32_t keysym);

// The Unicode code point a character keysym stands for; nullopt for the
// others (named keys, unassigned ranges).
std::optional<char32_t> keysym_code_point(uint32_t keysym);

}  // namespace voxl::platform::windows
