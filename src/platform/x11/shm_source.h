// ShmGetImage straight into the frame: the frames' buffers are MIT-SHM
// segments (ShmBufferAllocator), damaged rows are requested as full-width
// bands that land in place, narrow rectangles through the segment's staging
// area (plan_shm_requests). All of a frame's requests go out back to back
// and their replies are collected together: one round trip per frame, or
// one per staging area's worth of narrow rectangles.
//
// Threads: owned and used by the capturer's thread; its destructor detaches
// every segment on the server, so it must run before the connection closes.
#pragma once

#include <memory>

#include "platform/x11/pixel_source.h"
#include "platform/x11/shm_buffer_allocator.h"
#include "platform/x11/shm_segment.h"

namespace voxl::platform::x11 {

class ShmSource final : public PixelSource {
 public:
  ShmSource(xcb_connection_t* c, ShmKind kind);
  ~ShmSource() override;
  SourceKind kind() const override { return SourceKind::kShm; }
  std::string describe() const override;
  // Checks once that the server attaches a segment of this kind.
  std::string prepare(Size capture) override;
  std::shared_ptr<capture::FrameBufferAllocator> allocator() const override { return allocator_; }
  std::vector<Rect> coverage(std::span<const Rect> rects, Size frame) const override;
  // `frame` must be a buffer of allocator().
  std::string grab(xcb_drawable_t drawable, Rect origin, std::span<const Rect> rects,
                   capture::Frame& frame) override;

  // The server-side segment of the last frame grabbed: diagnostics and tests.
  xcb_shm_seg_t segment_id() const { return last_segment_; }
  // Segments attached on the server now: tests.
  size_t attached_segments() const { return allocator_->attached_segments(); }

 private:
  xcb_connection_t* c_;
  ShmKind kind_;
  bool probed_ = false;
  std::shared_ptr<ShmBufferAllocator> allocator_;
  xcb_shm_seg_t last_segment_ = 0;
};

}  // namespace voxl::platform::x11
