#include "platform/x11/shm_source.h"

#include <cstring>
#include <vector>

#include "capture/frame_pool.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

const char* to_string(SourceKind k) {
  switch (k) {
    case SourceKind::kFramebuffer: return "xvfb-framebuffer";
    case SourceKind::kShm: return "shm";
    case SourceKind::kGetImage: return "get-image";
  }
  return "unknown";
}

std::string ShmSource::describe() const {
  return std::string("ShmGetImage (") + x11::to_string(kind_) + ")";
}

std::string ShmSource::prepare(Size capture) {
  if (segment_ && capture == prepared_) return {};
  const auto bytes = capture::buffer_bytes(capture.width * capture::kBytesPerPixel, capture.height);
  if (!bytes) return "capture size " + std::to_string(capture.width) + "x" +
                     std::to_string(capture.height) + " is invalid";
  segment_.reset();  // detach the old one first: never hold two
  std::string error;
  segment_ = ShmSegment::create(c_, *bytes, kind_, error);
  if (!segment_) return error;
  prepared_ = capture;
  return {};
}

std::string ShmSource::grab(xcb_drawable_t drawable, Rect origin, std::span<const Rect> rects,
                            capture::Frame& frame) {
  if (!segment_) return "no shared-memory segment";
  struct Pending {
    Rect r;
    size_t offset;
    xcb_shm_get_image_cookie_t cookie;
  };
  std::vector<Pending> pending;
  pending.reserve(rects.size());
  std::string error;
  size_t i = 0;
  while (i < rects.size()) {
    // Pack as many rectangles as fit into the segment, request them all,
    // then collect; disjoint damage inside the capture area always fits.
    pending.clear();
    size_t offset = 0;
    for (; i < rects.size(); ++i) {
      const Rect& r = rects[i];
      const size_t bytes = size_t(r.width) * size_t(r.height) * capture::kBytesPerPixel;
      if (bytes > segment_->size()) return "rectangle larger than the capture area";
      if (offset + bytes > segment_->size()) break;
      pending.push_back({r, offset,
                         xcb_shm_get_image(c_, drawable, int16_t(r.x + origin.x),
                                           int16_t(r.y + origin.y), uint16_t(r.width),
                                           uint16_t(r.height), ~0u, XCB_IMAGE_FORMAT_Z_PIXMAP,
                                           segment_->id(), uint32_t(offset))});
      offset += bytes;
    }
    for (const Pending& p : pending) {
      xcb_generic_error_t* raw = nullptr;
      XcbPtr<xcb_shm_get_image_reply_t> reply(xcb_shm_get_image_reply(c_, p.cookie, &raw));
      XcbPtr<xcb_generic_error_t> err(raw);
      if (!reply) {
        if (error.empty()) error = "ShmGetImage failed: " + describe_error(err.get());
        continue;
      }
      if (!error.empty()) continue;
      const size_t row_bytes = size_t(p.r.width) * capture::kBytesPerPixel;
      const uint8_t* src = segment_->data() + p.offset;
      uint8_t* dst = frame.row(p.r.y) + ptrdiff_t(p.r.x) * capture::kBytesPerPixel;
      for (int y = 0; y < p.r.height; ++y) {
        std::memcpy(dst, src, row_bytes);
        src += row_bytes;
        dst += frame.stride();
      }
    }
    if (!error.empty()) return error;
  }
  return {};
}

}  // namespace voxl::platform::x11
