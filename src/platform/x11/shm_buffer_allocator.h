// Frame-pool buffers that are MIT-SHM segments attached to the X server, so
// ShmGetImage writes a frame's pixels in place: one copy, by the server.
//
// Each buffer is one segment: the picture (rows packed, stride = width * 4,
// which is how ShmGetImage lays out a full-width band) followed by a staging
// area for rectangles too narrow to be worth a band; see shm_request_plan.h.
//
// Lifecycle: a buffer may be destroyed on any thread (FrameRefs are held by
// the encoder and the screenshot service) and after its capturer is gone.
// Its destructor therefore never talks to the X server: it unmaps its memory
// and, while the allocator is open, queues the segment's server-side detach;
// the connection's thread sends the queued detaches (collect()) and, before
// the connection closes, detaches everything still attached (close()). From
// then on buffers only unmap. SysV segments are marked IPC_RMID as soon as
// they are attached, memfd segments have no id: nothing outlives the process.
//
// Threads: allocate(), collect() and close() on the connection's thread;
// ShmFrameBuffer's destructor on any thread. Blocking: allocate() and a
// collect() or close() with work to do make one round trip each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <xcb/shm.h>
#include <xcb/xcb.h>

#include "capture/frame_buffer.h"
#include "platform/x11/shm_segment.h"

namespace voxl::platform::x11 {

class ShmBufferAllocator;

class ShmFrameBuffer final : public capture::FrameBuffer {
 public:
  struct Registry;  // shared with the allocator
  ShmFrameBuffer(std::unique_ptr<ShmMemory> memory, Size size, xcb_shm_seg_t seg,
                 size_t staging_offset, std::shared_ptr<Registry> registry);
  ~ShmFrameBuffer() override;

  xcb_shm_seg_t segment() const { return seg_; }
  // The staging area: `staging_bytes()` at `staging_offset()` of the segment.
  size_t staging_offset() const { return staging_offset_; }
  size_t staging_bytes() const { return memory_->size() - staging_offset_; }
  const uint8_t* staging() const { return memory_->data() + staging_offset_; }
  bool made_by(const ShmBufferAllocator& allocator) const;

 private:
  std::unique_ptr<ShmMemory> memory_;
  xcb_shm_seg_t seg_;
  size_t staging_offset_;
  std::shared_ptr<Registry> registry_;
};

class ShmBufferAllocator final : public capture::FrameBufferAllocator {
 public:
  ShmBufferAllocator(xcb_connection_t* c, ShmKind kind);
  // Makes no X call; close() must have run on the connection's thread.
  ~ShmBufferAllocator() override;

  // A segment for a `size` picture plus its staging area, attached on the
  // server, its picture pages faulted in; null on failure (last_error()).
  std::unique_ptr<capture::FrameBuffer> allocate(Size size) override;
  // Sends the detaches queued by destroyed buffers and waits for them.
  void collect();
  // Detaches every segment still attached (buffers may live on, unmapping
  // only) and allocates nothing more. Before the connection closes.
  void close();

  ShmKind kind() const { return kind_; }
  const std::string& last_error() const { return last_error_; }
  // Segments attached on the server (including queued detaches): tests.
  size_t attached_segments() const;

  // Bytes of the staging area that follows a picture of `picture_bytes`
  // with rows of `row_bytes`: a quarter of the picture, at least a row.
  static size_t staging_bytes_for(size_t picture_bytes, size_t row_bytes);

 private:
  friend class ShmFrameBuffer;
  xcb_connection_t* c_;
  ShmKind kind_;
  std::shared_ptr<ShmFrameBuffer::Registry> registry_;
  std::string last_error_;
};

}  // namespace voxl::platform::x11
