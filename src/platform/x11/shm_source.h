// ShmGetImage into one reused shared-memory segment sized for the capture
// area. Several damaged rectangles are requested back to back and their
// replies collected together, so a frame costs one round trip.
#pragma once

#include <memory>

#include "platform/x11/pixel_source.h"
#include "platform/x11/shm_segment.h"

namespace voxl::platform::x11 {

class ShmSource final : public PixelSource {
 public:
  ShmSource(xcb_connection_t* c, ShmKind kind) : c_(c), kind_(kind) {}
  SourceKind kind() const override { return SourceKind::kShm; }
  std::string describe() const override;
  std::string prepare(Size capture) override;
  std::string grab(xcb_drawable_t drawable, Rect origin, std::span<const Rect> rects,
                   capture::Frame& frame) override;

  // The server-side segment id: diagnostics and tests only.
  xcb_shm_seg_t segment_id() const { return segment_ ? segment_->id() : 0; }

 private:
  xcb_connection_t* c_;
  ShmKind kind_;
  Size prepared_;
  std::unique_ptr<ShmSegment> segment_;
};

}  // namespace voxl::platform::x11
