// The rectangles that make a window of `size` with its corners cut to a
// quarter circle of `radius`, for the X Shape extension (which takes
// rectangles, not an alpha mask: the edge is a staircase, with no
// anti-aliasing). One rectangle per row band of the same inset, top to
// bottom, each spanning the whole width less that inset on both sides: the
// list is YX-banded. The radius is clamped to half the smaller side; 0 (or
// less) gives the whole window.
//
// Pure logic; any thread.
#pragma once

#include <vector>

#include "base/geometry.h"

namespace voxl::platform::x11 {

std::vector<Rect> rounded_rectangles(Size size, int radius);

}  // namespace voxl::platform::x11
