// The Linux input layer's codes for pointer buttons (BTN_LEFT...), which the
// Wayland virtual pointer and the desktop portal take, from X11's button
// numbers (input/input_injector.h). The values are the kernel's ABI, written
// here so that no Linux header is needed. Pure; any thread.
#pragma once

#include <cstdint>
#include <optional>

#include "input/input_injector.h"

namespace voxl::platform {

inline std::optional<uint32_t> evdev_button(int x11_button) {
  switch (x11_button) {
    case input::kButtonLeft: return 0x110;     // BTN_LEFT
    case input::kButtonMiddle: return 0x112;   // BTN_MIDDLE
    case input::kButtonRight: return 0x111;    // BTN_RIGHT
    case input::kButtonBack: return 0x113;     // BTN_SIDE
    case input::kButtonForward: return 0x114;  // BTN_EXTRA
    default: return std::nullopt;
  }
}

}  // namespace voxl::platform
