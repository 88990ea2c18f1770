// Rounded corners for the desktop's top-level windows (--round-corners,
// --round-windows): made by DesktopEnvironment::make_window_rounder(), it
// shapes every top-level window as it appears, is mapped, resized or
// renamed, for as long as it lives, and puts every window it shaped back
// to square when it is destroyed. Only X11 has it (the Shape extension).
//
// Threads: made, used and destroyed on the loop thread it was made for.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace voxl::platform {

struct WindowRoundingRule {
  std::string title;  // the whole title (_NET_WM_NAME, else WM_NAME), exactly
  int radius = 0;     // 0: square
};

struct WindowRoundingOptions {
  int radius = 0;  // every top-level window's, unless a rule names it
  std::vector<WindowRoundingRule> by_title;  // the first rule that matches wins
  bool any() const { return radius > 0 || !by_title.empty(); }
};

class WindowRounder {
 public:
  virtual ~WindowRounder() = default;
  // Top-level windows that have rounded corners now.
  virtual size_t rounded() const = 0;
};

}  // namespace voxl::platform
