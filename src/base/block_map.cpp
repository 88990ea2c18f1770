#include "base/block_map.h"

#include <algorithm>
#include <stdexcept>

namespace voxl {

BlockMap::BlockMap(Size frame)
    : frame_(frame),
      cols_(frame.empty() ? 0 : (frame.width + kBlock - 1) / kBlock),
      rows_(frame.empty() ? 0 : (frame.height + kBlock - 1) / kBlock),
      bits_(size_t(cols_) * size_t(rows_), 0) {}

void BlockMap::add(const Rect& r) {
  const Rect c = r.intersect(Rect::from_size(frame_));
  if (c.empty()) return;
  const int c0 = c.x / kBlock, c1 = (c.right() - 1) / kBlock;
  const int r0 = c.y / kBlock, r1 = (c.bottom() - 1) / kBlock;
  for (int row = r0; row <= r1; ++row)
    std::fill(bits_.begin() + ptrdiff_t(index(c0, row)), bits_.begin() + ptrdiff_t(index(c1, row)) + 1,
              uint8_t{1});
}

void BlockMap::add(const Region& r) {
  for (const Rect& rect : r.rects()) add(rect);
}

void BlockMap::add_all() { std::fill(bits_.begin(), bits_.end(), uint8_t{1}); }
void BlockMap::clear() { std::fill(bits_.begin(), bits_.end(), uint8_t{0}); }

bool BlockMap::empty() const {
  return std::none_of(bits_.begin(), bits_.end(), [](uint8_t b) { return b != 0; });
}

int BlockMap::count() const { return int(std::count(bits_.begin(), bits_.end(), uint8_t{1})); }

void BlockMap::unite(const BlockMap& o) {
  if (o.frame_ != frame_) throw std::logic_error("BlockMap::unite: frame sizes differ");
  for (size_t i = 0; i < bits_.size(); ++i) bits_[i] |= o.bits_[i];
}

void BlockMap::subtract(const BlockMap& o) {
  if (o.frame_ != frame_) throw std::logic_error("BlockMap::subtract: frame sizes differ");
  for (size_t i = 0; i < bits_.size(); ++i) bits_[i] &= uint8_t(~o.bits_[i] & 1);
}

std::vector<Rect> BlockMap::to_rects() const {
  std::vector<Rect> out;
  // Rectangles still open at the previous row, in block units.
  struct Open { int c0, c1, r0; size_t out_index; };
  std::vector<Open> open, next;
  for (int row = 0; row < rows_; ++row) {
    next.clear();
    int col = 0;
    while (col < cols_) {
      if (!test(col, row)) { ++col; continue; }
      const int start = col;
      while (col < cols_ && test(col, row)) ++col;
      auto it = std::find_if(open.begin(), open.end(),
                             [&](const Open& o) { return o.c0 == start && o.c1 == col; });
      if (it != open.end()) {
        next.push_back(*it);
      } else {
        out.push_back({});
        next.push_back({start, col, row, out.size() - 1});
      }
      const Open& o = next.back();
      out[o.out_index] = Rect{o.c0 * kBlock, o.r0 * kBlock, (o.c1 - o.c0) * kBlock,
                              (row + 1 - o.r0) * kBlock}
                             .intersect(Rect::from_size(frame_));
    }
    open.swap(next);
  }
  return out;
}

}  // namespace voxl
