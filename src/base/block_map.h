// A set of 16x16-pixel blocks over a frame: the unit in which damage is
// tracked, copied and converted. Value type, not thread-safe; any thread.
#pragma once

#include <cstdint>
#include <vector>

#include "base/geometry.h"

namespace voxl {

class BlockMap {
 public:
  static constexpr int kBlock = 16;

  BlockMap() = default;
  explicit BlockMap(Size frame);

  Size frame_size() const { return frame_; }
  int columns() const { return cols_; }
  int rows() const { return rows_; }

  // Marks every block the rectangle touches; the part outside the frame is ignored.
  void add(const Rect& r);
  void add_all();
  void clear();
  bool test(int col, int row) const { return bits_[index(col, row)] != 0; }
  bool empty() const;
  int count() const;

  // Both maps must cover the same frame size.
  void unite(const BlockMap& o);
  void subtract(const BlockMap& o);

  // Covers the marked blocks with few rectangles in frame pixels, clipped to
  // the frame: horizontal runs per block row, merged with the run below when
  // they span the same columns.
  std::vector<Rect> to_rects() const;

  friend bool operator==(const BlockMap&, const BlockMap&) = default;

 private:
  size_t index(int col, int row) const { return size_t(row) * size_t(cols_) + size_t(col); }

  Size frame_;
  int cols_ = 0;
  int rows_ = 0;
  std::vector<uint8_t> bits_;  // one byte per block: cheap to scan, no bit twiddling
};

}  // namespace voxl
