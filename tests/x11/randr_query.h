// Reads an X server's RandR configuration the way a test checks it: from a
// connection of its own, independent of the resizer under test. Also makes
// modes by hand, as a crashed run would have left them.
//
// Threads: any; each call opens and closes its own connection.
#pragma once

#include <string>
#include <vector>

#include "base/geometry.h"

namespace voxl::testing {

struct RandrSnapshot {
  Size screen;                        // the root window's size
  Size screen_mm;                     // the screen's physical size
  std::vector<std::string> modes;     // every mode the server knows, by name
  std::vector<std::string> offered;   // the modes the first output offers
  std::string current;                // the name of the lit CRTC's mode
};

// Throws std::runtime_error when the display cannot be read.
RandrSnapshot read_randr(const std::string& display);

// Modes whose name starts with "voxl-".
std::vector<std::string> voxl_modes(const RandrSnapshot& s);

// Makes a mode `name` of `size` and adds it to the first output, unused.
void add_stray_mode(const std::string& display, const std::string& name, Size size);

}  // namespace voxl::testing
