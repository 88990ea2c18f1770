// Where a frame's pixels live: the memory of one pool buffer and who made it.
// The pool asks a FrameBufferAllocator for buffers; without one it uses
// 64-byte aligned heap memory (make_heap_frame_buffer). A capture backend can
// supply its own allocator so the platform writes pixels straight into the
// frame (X11: MIT-SHM segments the X server fills in place).
//
// Threads: allocate() runs on the capturing thread. A FrameBuffer is written
// by the capturer that holds its frame, read from any thread, and may be
// destroyed on any thread, also after the allocator's owner (the capturer)
// is gone: implementations make their destructor safe for that.
//
// Ownership: the pool owns its buffers; a buffer keeps whatever it needs to
// free itself.
#pragma once

#include <cstdint>
#include <memory>

#include "base/geometry.h"

namespace voxl::capture {

class FrameBuffer {
 public:
  virtual ~FrameBuffer() = default;
  FrameBuffer(const FrameBuffer&) = delete;
  FrameBuffer& operator=(const FrameBuffer&) = delete;

  uint8_t* data() const { return data_; }
  Size size() const { return size_; }
  int stride() const { return stride_; }

 protected:
  FrameBuffer(uint8_t* data, Size size, int stride) : data_(data), size_(size), stride_(stride) {}

 private:
  uint8_t* data_;
  Size size_;
  int stride_;
};

class FrameBufferAllocator {
 public:
  virtual ~FrameBufferAllocator() = default;
  // A buffer for a BGRX picture of `size` (stride of the allocator's
  // choosing, at least width * 4), or null when none can be made.
  virtual std::unique_ptr<FrameBuffer> allocate(Size size) = 0;
};

// Heap memory with rows padded to 64 bytes (aligned_stride); null when the
// size is impossible or memory is short.
std::unique_ptr<FrameBuffer> make_heap_frame_buffer(Size size);

}  // namespace voxl::capture
