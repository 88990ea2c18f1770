// Block-wise work on 32-bit BGRX pictures held in memory: finding the
// 16-px blocks (BlockMap's) in which two pictures differ, and copying
// rectangles of a picture into a frame. Used by the GDI source, which has no
// change events and so learns what changed by comparing grabs.
//
// Threads: any; pure functions over the caller's buffers.
#pragma once

#include <cstdint>
#include <span>

#include "base/block_map.h"
#include "base/geometry.h"
#include "capture/frame.h"

namespace voxl::platform::windows {

// A read-only picture: `size` pixels, rows `stride` bytes apart.
struct ImageView {
  const uint8_t* data = nullptr;
  int stride = 0;
  Size size;
};

// Marks in `out` every block where `a` and `b` differ. Both pictures and
// `out` must have the same size. Costs one pass over both pictures at
// worst; a block stops being compared at its first differing row.
void diff_blocks(const ImageView& a, const ImageView& b, BlockMap& out);

// Copies `rects` (frame coordinates, clipped to the frame) from `src`, where
// frame pixel (x, y) is source pixel (x + dx, y + dy). The caller makes sure
// the source covers them.
void copy_rects(const ImageView& src, int dx, int dy, std::span<const Rect> rects, capture::Frame& frame);

}  // namespace voxl::platform::windows
