// Sets of pixels: the damage a capture reports, the damage an encoder
// still owes, and their cover in 16-px blocks are one kind of value, a
// Region. It keeps its pixels as disjoint rectangles, so whatever walks
// rects() touches every pixel once: work split by rectangle (the colour
// converter's threads) never writes the same bytes twice, and areas add up.
// BlockMap (block_map.h) holds a region on the kBlockSize grid as one flag
// per block, for the per-frame bookkeeping of capture where that is
// cheaper; BlockMap::region() and BlockMap::add(Region) convert.
//
// Value type, not thread-safe; any thread.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/geometry.h"

namespace voxl {

// The side of the square blocks in which capture tracks, copies and
// reports damage.
inline constexpr int kBlockSize = 16;

class Region {
 public:
  Region() = default;
  explicit Region(const Rect& r) { add(r); }
  explicit Region(std::span<const Rect> rects) { add(rects); }

  // Unites the pixels of `r` (nothing for an empty one) with the region's.
  void add(const Rect& r) { add(std::span<const Rect>(&r, 1)); }
  void add(std::span<const Rect> rects);
  void add(const Region& o) { add(std::span<const Rect>(o.rects_)); }
  // Keeps the part inside `clip`.
  void clip(const Rect& clip);
  void clear() { rects_.clear(); }

  // Every rectangle grown outward to multiples of `grid` (> 0), e.g. 2 for
  // whole 4:2:0 chroma samples or kBlockSize for the blocks capture copies.
  [[nodiscard]] Region aligned_out(int grid) const;

  [[nodiscard]] bool empty() const { return rects_.empty(); }
  [[nodiscard]] int64_t area() const;
  // The bounding box; empty for an empty region.
  [[nodiscard]] Rect bounds() const;
  [[nodiscard]] bool contains(Point p) const;

  // The pixels as disjoint rectangles, in horizontal bands from the top,
  // each band's left to right. No two rectangles of a band touch, and a
  // band follows the one above it only where the two differ, so the list is
  // the same for the same set of pixels whatever built it.
  [[nodiscard]] const std::vector<Rect>& rects() const { return rects_; }

  friend bool operator==(const Region&, const Region&) = default;

 private:
  // Replaces rects_ with the banded form of the union of `rects`.
  void rebuild(std::vector<Rect> rects);

  std::vector<Rect> rects_;
};

}  // namespace voxl
