// Filling rectangles of one window with solid colours, as the animated X11
// workloads (voxl-demo, voxl-bench-workload) draw: one PolyFillRectangle
// request per colour, so a frame is a handful of requests.
//
// Not thread-safe: one painter per connection and thread. Borrows the
// connection and window; its graphics context lives as long as the
// connection.
#pragma once

#include <xcb/xcb.h>

#include <cstdint>
#include <vector>

namespace voxl::bench {

struct Box {
  int x, y, w, h;
};

class BoxPainter {
 public:
  BoxPainter(xcb_connection_t* c, xcb_window_t w) : c_(c), w_(w), gc_(xcb_generate_id(c)) {
    xcb_create_gc(c_, gc_, w_, 0, nullptr);
  }
  void fill(const Box& b, uint32_t rgb) { fill(std::vector<Box>{b}, rgb); }
  void fill(const std::vector<Box>& boxes, uint32_t rgb) {
    if (boxes.empty()) return;
    xcb_change_gc(c_, gc_, XCB_GC_FOREGROUND, &rgb);
    std::vector<xcb_rectangle_t> r;
    r.reserve(boxes.size());
    for (const Box& b : boxes) r.push_back({int16_t(b.x), int16_t(b.y), uint16_t(b.w), uint16_t(b.h)});
    xcb_poly_fill_rectangle(c_, w_, gc_, uint32_t(r.size()), r.data());
  }

 private:
  xcb_connection_t* c_;
  xcb_window_t w_;
  xcb_gcontext_t gc_;
};

}  // namespace voxl::bench
