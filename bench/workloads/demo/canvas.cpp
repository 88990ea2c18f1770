#include "canvas.h"

#include <algorithm>

#include "animation_helpers.h"
#include "demo_style.h"

namespace voxl::demo {

namespace {

constexpr int kLineWidth = 4;

// The wheel's colours, darkened a quarter to read well on the light
// canvas; the first stroke is blue.
uint32_t stroke_colour(int stroke) {
  const uint32_t c = bench::hue(stroke * 256 + 1024);
  const auto dim = [&](int shift) { return ((c >> shift & 0xff) * 3 / 4) << shift; };
  return dim(16) | dim(8) | dim(0);
}

}  // namespace

Canvas::Canvas(xcb_connection_t* c, xcb_window_t window, uint8_t depth)
    : c_(c), window_(window), depth_(depth), copy_(xcb_generate_id(c)) {
  const uint32_t no_exposures = 0;
  xcb_create_gc(c_, copy_, window_, XCB_GC_GRAPHICS_EXPOSURES, &no_exposures);
}

Canvas::~Canvas() {
  if (pixmap_) {
    xcb_free_gc(c_, pen_);
    xcb_free_pixmap(c_, pixmap_);
  }
  xcb_free_gc(c_, copy_);
}

void Canvas::make_pixmap(int w, int h) {
  const xcb_pixmap_t old = pixmap_;
  const xcb_gcontext_t old_pen = pen_;
  pixmap_ = xcb_generate_id(c_);
  xcb_create_pixmap(c_, depth_, pixmap_, window_, uint16_t(std::max(1, w)), uint16_t(std::max(1, h)));
  pen_ = xcb_generate_id(c_);
  const uint32_t values[] = {style::kCanvas, uint32_t(kLineWidth), XCB_CAP_STYLE_ROUND, XCB_JOIN_STYLE_ROUND, 0};
  xcb_create_gc(c_, pen_, pixmap_,
                XCB_GC_FOREGROUND | XCB_GC_LINE_WIDTH | XCB_GC_CAP_STYLE | XCB_GC_JOIN_STYLE |
                    XCB_GC_GRAPHICS_EXPOSURES,
                values);
  const xcb_rectangle_t all{0, 0, uint16_t(std::max(1, w)), uint16_t(std::max(1, h))};
  xcb_poly_fill_rectangle(c_, pixmap_, pen_, 1, &all);
  if (old) {
    xcb_copy_area(c_, old, pixmap_, copy_, 0, 0, 0, 0, uint16_t(std::min(area_.w, w)),
                  uint16_t(std::min(area_.h, h)));
    xcb_free_gc(c_, old_pen);
    xcb_free_pixmap(c_, old);
  }
}

void Canvas::place(const Area& area) {
  if (!pixmap_ || area.w != area_.w || area.h != area_.h) make_pixmap(area.w, area.h);
  area_ = area;
  drawing_ = false;
}

void Canvas::show() {
  if (!pixmap_ || area_.empty()) return;
  xcb_copy_area(c_, pixmap_, window_, copy_, 0, 0, int16_t(area_.x), int16_t(area_.y), uint16_t(area_.w),
                uint16_t(area_.h));
}

void Canvas::show_around(int x0, int y0, int x1, int y1) {
  const int m = kLineWidth;  // the pen's reach beyond the path
  const int left = std::max(0, std::min(x0, x1) - m), top = std::max(0, std::min(y0, y1) - m);
  const int right = std::min(area_.w, std::max(x0, x1) + m + 1), bottom = std::min(area_.h, std::max(y0, y1) + m + 1);
  if (right <= left || bottom <= top) return;
  xcb_copy_area(c_, pixmap_, window_, copy_, int16_t(left), int16_t(top), int16_t(area_.x + left),
                int16_t(area_.y + top), uint16_t(right - left), uint16_t(bottom - top));
}

void Canvas::begin(int x, int y) {
  if (!pixmap_) return;
  drawing_ = true;
  last_x_ = x - area_.x;
  last_y_ = y - area_.y;
  const uint32_t colour = stroke_colour(strokes_++);
  xcb_change_gc(c_, pen_, XCB_GC_FOREGROUND, &colour);
  // A zero-length wide line with round caps: a dot.
  const xcb_point_t p[] = {{int16_t(last_x_), int16_t(last_y_)}, {int16_t(last_x_), int16_t(last_y_)}};
  xcb_poly_line(c_, XCB_COORD_MODE_ORIGIN, pixmap_, pen_, 2, p);
  show_around(last_x_, last_y_, last_x_, last_y_);
}

void Canvas::extend(int x, int y) {
  if (!drawing_) return;
  const int cx = x - area_.x, cy = y - area_.y;
  const xcb_point_t p[] = {{int16_t(last_x_), int16_t(last_y_)}, {int16_t(cx), int16_t(cy)}};
  xcb_poly_line(c_, XCB_COORD_MODE_ORIGIN, pixmap_, pen_, 2, p);
  show_around(last_x_, last_y_, cx, cy);
  last_x_ = cx;
  last_y_ = cy;
}

void Canvas::clear() {
  if (!pixmap_) return;
  const uint32_t background = style::kCanvas;
  xcb_change_gc(c_, pen_, XCB_GC_FOREGROUND, &background);
  const xcb_rectangle_t all{0, 0, uint16_t(area_.w), uint16_t(area_.h)};
  xcb_poly_fill_rectangle(c_, pixmap_, pen_, 1, &all);
  drawing_ = false;
  show();
}

}  // namespace voxl::demo
