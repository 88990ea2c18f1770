#include "platform/x11/get_image_source.h"

#include <vector>

#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

std::string GetImageSource::grab(xcb_drawable_t drawable, Rect origin, std::span<const Rect> rects,
                                 capture::Frame& frame) {
  // Replies of big rectangles are large; a few in flight keep the pipe busy
  // without holding a frame's worth of replies in memory at once.
  constexpr size_t kInFlight = 4;
  std::vector<xcb_get_image_cookie_t> cookies(rects.size());
  std::string error;
  size_t sent = 0;
  for (size_t i = 0; i < rects.size(); ++i) {
    while (sent < rects.size() && sent < i + kInFlight) {
      const Rect& r = rects[sent];
      cookies[sent++] = xcb_get_image(c_, XCB_IMAGE_FORMAT_Z_PIXMAP, drawable,
                                      int16_t(r.x + origin.x), int16_t(r.y + origin.y),
                                      uint16_t(r.width), uint16_t(r.height), ~0u);
    }
    xcb_generic_error_t* raw = nullptr;
    XcbPtr<xcb_get_image_reply_t> reply(xcb_get_image_reply(c_, cookies[i], &raw));
    XcbPtr<xcb_generic_error_t> err(raw);
    if (!error.empty()) continue;
    if (!reply) {
      error = "GetImage failed: " + describe_error(err.get());
      continue;
    }
    const Rect& r = rects[i];
    const size_t row_bytes = zpixmap_row_bytes(r.width, fmt_.bits_per_pixel, scanline_pad_);
    const size_t have = size_t(xcb_get_image_data_length(reply.get()));
    if (row_bytes == 0 || have < row_bytes * size_t(r.height)) {
      error = "GetImage returned " + std::to_string(have) + " bytes for " + to_string(r);
      continue;
    }
    const uint8_t* src = xcb_get_image_data(reply.get());
    for (int y = 0; y < r.height; ++y) {
      convert_row(src + size_t(y) * row_bytes, fmt_, r.width,
                  reinterpret_cast<uint32_t*>(frame.row(r.y + y) + ptrdiff_t(r.x) * capture::kBytesPerPixel));
    }
  }
  return error;
}

}  // namespace voxl::platform::x11
