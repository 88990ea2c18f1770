// Switches read from the environment (VOXL_X11_DISABLE_SHM,
// VOXL_WINDOWS_DISABLE_DXGI): "1", "true", "yes" or "on", in any case and
// with spaces around, turn one on; anything else, or unset, leaves it off.
//
// Threads: any; a pure function.
#pragma once

namespace voxl {

bool env_flag_enabled(const char* value);

}  // namespace voxl
