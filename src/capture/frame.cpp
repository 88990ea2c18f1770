#include "capture/frame.h"

#include <cstring>

namespace voxl::capture {

uint32_t Frame::pixel(int x, int y) const {
  uint32_t v;
  std::memcpy(&v, row(y) + ptrdiff_t(x) * kBytesPerPixel, sizeof v);
  return v & 0x00ffffffu;
}

}  // namespace voxl::capture
