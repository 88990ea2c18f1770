// Where pixels come from: the ways of reading a drawable's pixels into a
// frame (ShmGetImage, GetImage, the Xvfb framebuffer). The X11 capturer
// picks one and keeps GetImage as the fallback.
//
// Threads: owned and used by the capturer's thread.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <xcb/xcb.h>

#include "base/geometry.h"
#include "capture/frame.h"
#include "capture/frame_buffer.h"

namespace voxl::platform::x11 {

enum class SourceKind { kFramebuffer, kShm, kGetImage };
const char* to_string(SourceKind k);

class PixelSource {
 public:
  virtual ~PixelSource() = default;
  virtual SourceKind kind() const = 0;
  // Human-readable detail for logs, e.g. "ShmGetImage (memfd)".
  virtual std::string describe() const = 0;

  // Gets ready to grab areas up to `capture` in size (reallocates buffers
  // when the size changed). Empty string on success, else the reason.
  virtual std::string prepare(Size capture) = 0;

  // Where frames for this source should live (null: anywhere, the pool's
  // heap buffers). The capturer passes it to FramePool::acquire().
  virtual std::shared_ptr<capture::FrameBufferAllocator> allocator() const { return nullptr; }

  // The area grab() will write for `rects` in a `frame`-sized frame: at
  // least `rects`, possibly more (ShmGetImage writes full-width bands).
  virtual std::vector<Rect> coverage(std::span<const Rect> rects, Size frame) const {
    (void)frame;
    return {rects.begin(), rects.end()};
  }

  // Copies each of `rects` (frame coordinates, inside the frame) from
  // `drawable` into `frame`; frame pixel (x, y) is drawable pixel
  // (x + origin.x, y + origin.y). Empty string on success, else what failed;
  // the frame may then be partly written.
  virtual std::string grab(xcb_drawable_t drawable, Rect origin, std::span<const Rect> rects,
                           capture::Frame& frame) = 0;
};

}  // namespace voxl::platform::x11
