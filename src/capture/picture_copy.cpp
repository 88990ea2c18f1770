#include "capture/picture_copy.h"

#include <cstddef>
#include <cstring>

namespace voxl::capture {

PictureView crop(const PictureView& whole, const Rect& region) {
  PictureView part = whole;
  part.size = region.size();
  // Bottom-up, the region's last row comes first in memory.
  const int first_row = whole.bottom_up ? whole.size.height - region.bottom() : region.y;
  part.data = whole.data + ptrdiff_t(first_row) * whole.stride + ptrdiff_t(region.x) * kBytesPerPixel;
  return part;
}

void copy_into_frame(const PictureView& from, const BlockMap& blocks, Frame& frame) {
  for (const Rect& r : blocks.to_rects()) {
    const Rect c = r.intersect(Rect::from_size(from.size));
    for (int y = c.y; y < c.bottom(); ++y) {
      const int row = from.bottom_up ? from.size.height - 1 - y : y;
      const uint8_t* src = from.data + ptrdiff_t(row) * from.stride + ptrdiff_t(c.x) * kBytesPerPixel;
      uint8_t* dst = frame.row(y) + ptrdiff_t(c.x) * kBytesPerPixel;
      if (!from.red_first) {
        std::memcpy(dst, src, size_t(c.width) * kBytesPerPixel);
        continue;
      }
      for (int x = 0; x < c.width; ++x, src += 4, dst += 4) {
        dst[0] = src[2];
        dst[1] = src[1];
        dst[2] = src[0];
        dst[3] = 0;
      }
    }
  }
}

}  // namespace voxl::capture
