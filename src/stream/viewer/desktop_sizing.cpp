#include "stream/viewer/desktop_sizing.h"

#include <algorithm>
#include <cmath>

namespace voxl::stream {

namespace {

Size rounded(Size s) { return {s.width / 8 * 8, s.height / 2 * 2}; }

}  // namespace

DesktopSizeLimits desktop_size_limits(Size max) {
  DesktopSizeLimits l;
  l.max = rounded({std::min(max.width, DesktopSizeLimits::kLargestSide),
                   std::min(max.height, DesktopSizeLimits::kLargestSide)});
  l.min = {std::min(l.min.width, l.max.width), std::min(l.min.height, l.max.height)};
  return l;
}

Size fit_desktop_size(Size want, const DesktopSizeLimits& limits) {
  if (limits.max.empty() || limits.min.width > limits.max.width || limits.min.height > limits.max.height)
    return {};
  Size clamped{std::clamp(want.width, limits.min.width, limits.max.width),
               std::clamp(want.height, limits.min.height, limits.max.height)};
  if (clamped.area() > DesktopSizeLimits::kLargestArea) {
    const double k = std::sqrt(double(DesktopSizeLimits::kLargestArea) / double(clamped.area()));
    clamped = {int(clamped.width * k), int(clamped.height * k)};
  }
  const Size r = rounded(clamped);
  // A minimum that is itself not rounded (given by hand) still holds.
  return {std::max(r.width, limits.min.width), std::max(r.height, limits.min.height)};
}

}  // namespace voxl::stream
