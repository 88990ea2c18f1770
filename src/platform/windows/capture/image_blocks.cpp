#include "platform/windows/capture/image_blocks.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace voxl::platform::windows {

void diff_blocks(const ImageView& a, const ImageView& b, BlockMap& out) {
  constexpr int kB = BlockMap::kBlock;
  const Size s = a.size;
  if (s.empty() || b.size != s || out.frame_size() != s) return;
  std::vector<uint8_t> marked(size_t(out.columns()), 0);
  for (int row = 0; row < out.rows(); ++row) {
    std::fill(marked.begin(), marked.end(), uint8_t{0});
    const int y0 = row * kB, y1 = std::min(s.height, y0 + kB);
    int left = out.columns();
    for (int y = y0; y < y1 && left > 0; ++y) {
      const uint8_t* pa = a.data + ptrdiff_t(y) * a.stride;
      const uint8_t* pb = b.data + ptrdiff_t(y) * b.stride;
      for (int col = 0; col < out.columns(); ++col) {
        if (marked[size_t(col)]) continue;
        const int x0 = col * kB, w = std::min(kB, s.width - x0);
        const ptrdiff_t off = ptrdiff_t(x0) * capture::kBytesPerPixel;
        if (std::memcmp(pa + off, pb + off, size_t(w) * capture::kBytesPerPixel) != 0) {
          marked[size_t(col)] = 1;
          --left;
          out.add({x0, y0, w, y1 - y0});
        }
      }
    }
  }
}

void copy_rects(const ImageView& src, int dx, int dy, std::span<const Rect> rects, capture::Frame& frame) {
  const Rect bounds = Rect::from_size(frame.size()).intersect(Rect::from_size(src.size).translated(-dx, -dy));
  for (const Rect& raw : rects) {
    const Rect r = raw.intersect(bounds);
    if (r.empty()) continue;
    const size_t bytes = size_t(r.width) * capture::kBytesPerPixel;
    for (int y = r.y; y < r.bottom(); ++y)
      std::memcpy(frame.row(y) + ptrdiff_t(r.x) * capture::kBytesPerPixel,
                  src.data + ptrdiff_t(y + dy) * src.stride + ptrdiff_t(r.x + dx) * capture::kBytesPerPixel, bytes);
  }
}

}  // namespace voxl::platform::windows
