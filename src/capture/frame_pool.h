// A bounded set of reusable frame buffers. The pool never grows past its
// capacity: when every buffer is still held downstream, acquire() says so
// and the caller skips (or delays) the capture instead of allocating.
//
// It also remembers, per buffer, which blocks are older than the newest
// published frame, so a capturer only has to bring a reused buffer up to
// date by copying those blocks from the newest frame in memory, and grab
// only what the server says changed.
//
// Buffers come from the FrameBufferAllocator the capturer passes to
// acquire(), heap memory when it passes none; a free buffer made by another
// allocator (or of another size) is replaced, so a rebuilt capturer gets
// buffers of its own.
//
// Threads: acquire() and publish() on the capturing thread; FrameRefs may be
// released on any thread. The buffers live as long as the pool or the last
// FrameRef, whichever is later, and are destroyed on the thread that drops
// the last of them (or in acquire(), when replaced).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "base/block_map.h"
#include "capture/frame.h"
#include "capture/frame_buffer.h"

namespace voxl::capture {

class FramePool {
 public:
  explicit FramePool(size_t capacity = 2);
  ~FramePool();
  FramePool(const FramePool&) = delete;
  FramePool& operator=(const FramePool&) = delete;

  struct Lease {
    FrameRef frame;
    // Pixels of the newest published frame of the same size, and the blocks
    // of `frame` that are older than it. When `source` is null, no buffer of
    // this size holds a picture yet and the whole frame must be filled.
    const uint8_t* source = nullptr;
    int source_stride = 0;
    BlockMap stale;
  };

  // A free buffer of `size` from `allocator` (heap memory when null),
  // reallocated if it had another size or came from another allocator; or
  // nullopt when all `capacity` buffers are held or allocation failed.
  std::optional<Lease> acquire(Size size,
                               const std::shared_ptr<FrameBufferAllocator>& allocator = nullptr);

  // `frame` (from this pool) is now the newest picture; `changed` are the
  // blocks written into it from the server. Every other buffer of that size
  // becomes stale in those blocks.
  void publish(const Frame& frame, const BlockMap& changed);

  // `frame` (from this pool) was only partly written: its buffer holds no
  // usable picture until it is filled completely again.
  void discard(const Frame& frame);

  // Whether the last acquire() failed because no buffer could be made (the
  // allocator or the heap said no), not because all were held. Capturing
  // thread.
  bool allocation_failed() const;

  size_t capacity() const;
  size_t in_use() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

// Row stride for a BGRX buffer `width` pixels wide, padded to 64 bytes so
// rows start on cache lines; 0 when the width is not positive or overflows.
int aligned_stride(int width);

// Bytes for `height` rows of `stride`, or nullopt on overflow or bad input.
std::optional<size_t> buffer_bytes(int stride, int height);

}  // namespace voxl::capture
