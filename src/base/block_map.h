// A set of kBlockSize (16) pixel square blocks over a frame: the unit in
// which capture tracks and copies damage. The same kind of set as a Region
// (region.h) on the block grid, held as one flag per block so that uniting
// and subtracting per frame costs a pass over the flags.
// Value type, not thread-safe; any thread.
#pragma once

#include <cstdint>
#include <vector>

#include "base/geometry.h"
#include "base/region.h"

namespace voxl {

class BlockMap {
 public:
  static constexpr int kBlock = kBlockSize;

  BlockMap() = default;
  explicit BlockMap(Size frame);

  Size frame_size() const { return frame_; }
  int columns() const { return cols_; }
  int rows() const { return rows_; }

  // Marks every block the rectangle touches; the part outside the frame is ignored.
  void add(const Rect& r);
  void add(const Region& r);
  void add_all();
  void clear();
  bool test(int col, int row) const { return bits_[index(col, row)] != 0; }
  [[nodiscard]] bool empty() const;
  [[nodiscard]] int count() const;

  // Both maps must cover the same frame size.
  void unite(const BlockMap& o);
  void subtract(const BlockMap& o);

  // Covers the marked blocks with few rectangles in frame pixels, clipped to
  // the frame: horizontal runs per block row, merged with the run below when
  // they span the same columns.
  [[nodiscard]] std::vector<Rect> to_rects() const;
  // The marked blocks as a region, clipped to the frame.
  [[nodiscard]] Region region() const { return Region(to_rects()); }

  friend bool operator==(const BlockMap&, const BlockMap&) = default;

 private:
  size_t index(int col, int row) const { return size_t(row) * size_t(cols_) + size_t(col); }

  Size frame_;
  int cols_ = 0;
  int rows_ = 0;
  std::vector<uint8_t> bits_;  // one byte per block: cheap to scan, no bit twiddling
};

}  // namespace voxl
