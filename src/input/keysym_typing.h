// Typing text through an injector whose keys are keysyms (the Wayland
// virtual keyboard, the desktop portal): each character pressed and
// released as its keysym, whatever the lock keys say. Any thread the
// injector allows.
#pragma once

#include <string_view>

#include "input/input_injector.h"

namespace voxl::input {

// Types `utf8` with `injector.key()`; stops at the first character it
// cannot type (kUnknownKey for text that is not UTF-8 or a character with
// no keysym) or the first key that fails.
InputStatus type_by_keysyms(InputInjector& injector, std::string_view utf8);

}  // namespace voxl::input
