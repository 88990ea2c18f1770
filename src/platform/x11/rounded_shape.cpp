#include "platform/x11/rounded_shape.h"

#include <algorithm>
#include <cmath>

namespace voxl::platform::x11 {

namespace {

// How far row `y` (0 = the top row) of a corner of `r` is cut in: the
// columns whose centres lie outside the circle through the corner's
// centre at (r, r).
int inset(int y, int r) {
  const double dy = double(r) - (double(y) + 0.5);
  const double half = std::sqrt(std::max(0.0, double(r) * r - dy * dy));
  return std::clamp(int(std::lround(double(r) - half)), 0, r);
}

}  // namespace

std::vector<Rect> rounded_rectangles(Size size, int radius) {
  std::vector<Rect> out;
  if (size.width <= 0 || size.height <= 0) return out;
  const int r = std::clamp(radius, 0, std::min(size.width, size.height) / 2);
  if (r == 0) {
    out.push_back(Rect::from_size(size));
    return out;
  }
  // The top corners' rows, merged where the inset repeats.
  std::vector<Rect> top;
  for (int y = 0; y < r; ++y) {
    const int in = inset(y, r);
    if (!top.empty() && top.back().x == in) {
      ++top.back().height;
      continue;
    }
    top.push_back({in, y, size.width - 2 * in, 1});
  }
  out = top;
  if (size.height > 2 * r) out.push_back({0, r, size.width, size.height - 2 * r});
  // The bottom corners mirror the top ones.
  for (auto it = top.rbegin(); it != top.rend(); ++it)
    out.push_back({it->x, size.height - it->y - it->height, it->width, it->height});
  return out;
}

}  // namespace voxl::platform::x11
