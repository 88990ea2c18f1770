#include "platform/x11/shm_source.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "capture/frame_pool.h"
#include "platform/x11/shm_request_plan.h"
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

ShmSource::ShmSource(xcb_connection_t* c, ShmKind kind)
    : c_(c), kind_(kind), allocator_(std::make_shared<ShmBufferAllocator>(c, kind)) {}

ShmSource::~ShmSource() { allocator_->close(); }

std::string ShmSource::describe() const {
  return std::string("ShmGetImage (") + x11::to_string(kind_) + ", into the frame)";
}

std::string ShmSource::prepare(Size capture) {
  if (capture.empty()) return "capture size " + size_text(capture) + " is invalid";
  if (probed_) return {};
  // The frames' segments come later, from the pool; one page proves now
  // that the server can attach this kind at all (not on a TCP display, say).
  std::string error;
  if (!ShmSegment::create(c_, 4096, kind_, error)) return error;
  probed_ = true;
  return {};
}

std::vector<Rect> ShmSource::coverage(std::span<const Rect> rects, Size frame) const {
  std::vector<Rect> out;
  for (const ShmRequest& q : plan_shm_requests(rects, frame)) out.push_back(q.rect);
  return out;
}

std::string ShmSource::grab(xcb_drawable_t drawable, Rect origin, std::span<const Rect> rects,
                            capture::Frame& frame) {
  allocator_->collect();
  const auto* buffer = dynamic_cast<const ShmFrameBuffer*>(frame.buffer());
  if (!buffer || !buffer->made_by(*allocator_)) return "the frame is not in one of this source's segments";
  if (frame.stride() != frame.size().width * capture::kBytesPerPixel)
    return "the frame's rows are not packed";
  last_segment_ = buffer->segment();

  struct Pending {
    Rect r;
    bool in_place;
    size_t staged_at;  // offset into the staging area
    xcb_shm_get_image_cookie_t cookie;
  };
  std::vector<Pending> pending;
  std::string error;
  size_t staged = 0;

  auto send = [&](const Rect& r, bool in_place, size_t offset) {
    pending.push_back({r, in_place, in_place ? 0 : offset - buffer->staging_offset(),
                       xcb_shm_get_image(c_, drawable, int16_t(r.x + origin.x), int16_t(r.y + origin.y),
                                         uint16_t(r.width), uint16_t(r.height), ~0u,
                                         XCB_IMAGE_FORMAT_Z_PIXMAP, buffer->segment(),
                                         uint32_t(offset))});
  };
  // Collects every reply; staged rectangles are copied into place.
  auto collect = [&] {
    for (const Pending& p : pending) {
      xcb_generic_error_t* raw = nullptr;
      XcbPtr<xcb_shm_get_image_reply_t> reply(xcb_shm_get_image_reply(c_, p.cookie, &raw));
      XcbPtr<xcb_generic_error_t> err(raw);
      if (!reply) {
        if (error.empty()) error = "ShmGetImage failed: " + describe_error(err.get());
        continue;
      }
      if (!error.empty() || p.in_place) continue;
      const size_t row_bytes = size_t(p.r.width) * capture::kBytesPerPixel;
      const uint8_t* src = buffer->staging() + p.staged_at;
      uint8_t* dst = frame.row(p.r.y) + ptrdiff_t(p.r.x) * capture::kBytesPerPixel;
      for (int y = 0; y < p.r.height; ++y) {
        std::memcpy(dst, src, row_bytes);
        src += row_bytes;
        dst += frame.stride();
      }
    }
    pending.clear();
    staged = 0;
  };

  for (const ShmRequest& q : plan_shm_requests(rects, frame.size())) {
    if (q.in_place) {
      send(q.rect, true, size_t(q.rect.y) * size_t(frame.stride()));
      continue;
    }
    // Rows of a narrow rectangle in chunks the staging area holds; a full
    // staging area is emptied (its replies collected) before it is reused.
    const size_t row_bytes = size_t(q.rect.width) * capture::kBytesPerPixel;
    const int max_rows = int(std::min<size_t>(buffer->staging_bytes() / row_bytes, size_t(q.rect.height)));
    if (max_rows < 1) return "rectangle " + to_string(q.rect) + " is wider than the staging area";
    for (int y = q.rect.y; y < q.rect.bottom(); y += max_rows) {
      const Rect piece{q.rect.x, y, q.rect.width, std::min(max_rows, q.rect.bottom() - y)};
      const size_t bytes = size_t(piece.height) * row_bytes;
      if (staged + bytes > buffer->staging_bytes()) collect();
      send(piece, false, buffer->staging_offset() + staged);
      staged += bytes;
    }
  }
  collect();
  return error;
}

}  // namespace voxl::platform::x11
