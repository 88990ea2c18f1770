// A captured picture: 32-bit BGRX pixels (little-endian 0x00RRGGBB), the
// region that changed since the previous frame of the same capturer, and
// where it came from. Frames come from a FramePool; the pixels belong to the
// pool's FrameBuffer and stay valid while a FrameRef to the frame is held.
//
// Threads: written only by the capturer that acquired it, until it hands the
// FrameRef out; read-only afterwards, from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/block_map.h"
#include "base/geometry.h"
#include "capture/frame_buffer.h"

namespace voxl::capture {

constexpr int kBytesPerPixel = 4;

class Frame {
 public:
  Frame(uint8_t* data, Size size, int stride) : data_(data), size_(size), stride_(stride) {}
  explicit Frame(const FrameBuffer& buffer)
      : data_(buffer.data()), size_(buffer.size()), stride_(buffer.stride()), buffer_(&buffer) {}

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  const uint8_t* row(int y) const { return data_ + ptrdiff_t(y) * stride_; }
  uint8_t* row(int y) { return data_ + ptrdiff_t(y) * stride_; }
  Size size() const { return size_; }
  int stride() const { return stride_; }
  // The pool buffer holding the pixels (null for a frame over plain memory),
  // so a capturer can recognise memory it can have the platform write into.
  const FrameBuffer* buffer() const { return buffer_; }
  // 0x00RRGGBB at (x, y); for tests and diagnostics, not for hot loops.
  uint32_t pixel(int x, int y) const;

  // What changed since the previous frame: the exact rectangles the server
  // reported, clipped to the frame, and the 16-px blocks they touch.
  std::vector<Rect> damage_rects;
  BlockMap damage_blocks;
  // Where pixel 0,0 lies on the desktop, in the coordinates the platform's
  // InputInjector takes (X11: the root window's): 0,0 for the screen, a
  // region's corner, a window's current position.
  Point origin;
  uint64_t seq = 0;  // counts frames of one capturer, from 1
  std::chrono::steady_clock::time_point captured_at;  // when the grab finished
  uint32_t grab_us = 0;  // time spent reading pixels (not waiting for damage)

 private:
  uint8_t* data_;
  Size size_;
  int stride_;
  const FrameBuffer* buffer_ = nullptr;
};

using FrameRef = std::shared_ptr<Frame>;

}  // namespace voxl::capture
