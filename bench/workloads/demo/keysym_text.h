// What a key means to voxl-demo's text box: a character to add, Backspace,
// Return, or nothing. Latin-1 keysyms (what most European layouts type)
// and Unicode keysyms (0x01000000 + the code point, what voxl binds for
// characters the layout lacks) are characters; so are the keypad's digits
// and operators. Other legacy keysyms (Cyrillic, Greek, ... as their own
// keysym ranges) are characters the demo cannot name: shown as U+FFFD.
//
// Pure functions; any thread.
#pragma once

#include <cstdint>

namespace voxl::demo {

struct KeyMeaning {
  enum class Action { kNone, kInsert, kBackspace, kNewline } action = Action::kNone;
  char32_t character = 0;  // for kInsert
};

KeyMeaning key_meaning(uint32_t keysym);

// The upper and lower case of a Latin-1 keysym; other keysyms unchanged.
uint32_t keysym_upper(uint32_t keysym);
uint32_t keysym_lower(uint32_t keysym);

}  // namespace voxl::demo
