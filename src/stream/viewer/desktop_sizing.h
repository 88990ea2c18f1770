// The sizes a desktop may be asked to take: what a viewer's window wants,
// made into a size the encoders and the display server take (width a
// multiple of 8, even height) within the display's limits.
// Pure functions of plain values: any thread.
#pragma once

#include "base/geometry.h"

namespace voxl::stream {

struct DesktopSizeLimits {
  // Below this the desktop's own windows stop being usable.
  static constexpr Size kSmallest{320, 240};
  // Above this, whatever the display allows, capture, conversion and x264
  // cost more than this machine class can stream: each side at most 4096,
  // the area at most 3840x2160's.
  static constexpr int kLargestSide = 4096;
  static constexpr int64_t kLargestArea = int64_t{3840} * 2160;

  Size min = kSmallest;
  Size max{};  // the largest the display allows
};

// The limits for a display whose largest size is `max` (each side capped at
// kLargestSide): the minimum is kSmallest, or `max` itself where that is
// smaller. Both are rounded like any size, so fit_desktop_size() never
// leaves them.
DesktopSizeLimits desktop_size_limits(Size max);

// `want` clamped to the limits and, past kLargestArea, scaled down keeping
// its shape; then its width rounded down to a multiple of 8 and its height
// down to an even number. Empty when the limits are (no size fits).
Size fit_desktop_size(Size want, const DesktopSizeLimits& limits);

}  // namespace voxl::stream
