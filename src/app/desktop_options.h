// The platform seam's options as the flags give them: which display, a
// private virtual display, --exec's program, the capture target, the sound
// devices, and whether the desktop follows the viewers' windows.
//
// Threads: any; a pure function of the config.
#pragma once

#include "app/config.h"
#include "platform/desktop_environment.h"

namespace voxl::app {

platform::DesktopOptions desktop_options(const Config& config);

}  // namespace voxl::app
