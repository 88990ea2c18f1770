#include "input/picture_mapping.h"

#include <algorithm>

namespace voxl::input {

Point PictureMapping::to_desktop(int x, int y) const {
  x = std::max(0, x);
  y = std::max(0, y);
  if (known()) {
    x = std::min(x, area.width - 1);
    y = std::min(y, area.height - 1);
  }
  // Wide arithmetic: a far-off origin plus a far-off position must not overflow.
  const auto add = [](int a, int b) {
    const long long v = static_cast<long long>(a) + b;
    return static_cast<int>(std::clamp<long long>(v, -(1LL << 30), 1LL << 30));
  };
  return {add(origin.x, x), add(origin.y, y)};
}

}  // namespace voxl::input
