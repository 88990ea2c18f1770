#include "present/marker_strip.h"

#include <xcb/damage.h>
#include <xcb/xcb.h>

#include <bit>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "marker/marker.h"

namespace voxl::bench {

namespace {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
template <typename T>
using XcbReply = std::unique_ptr<T, FreeDeleter>;

const xcb_visualtype_t* root_visual(const xcb_screen_t* s) {
  for (auto d = xcb_screen_allowed_depths_iterator(s); d.rem; xcb_depth_next(&d))
    for (auto v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v))
      if (v.data->visual_id == s->root_visual) return v.data;
  return nullptr;
}

int bits_per_pixel(const xcb_setup_t* setup, int depth) {
  for (auto f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f))
    if (f.data->depth == depth) return f.data->bits_per_pixel;
  return 0;
}

// The shift of an 8-bit channel mask, or -1 for any other mask.
int channel_shift(uint32_t mask) {
  if (std::popcount(mask) != 8) return -1;
  const int shift = std::countr_zero(mask);
  return (mask >> shift) == 0xff ? shift : -1;
}

}  // namespace

MarkerStrip::MarkerStrip(const std::string& display, int cell, int x, int y)
    : x_(x), y_(y), width_(marker_width(cell)), height_(marker_height(cell)) {
  c_ = xcb_connect(display.empty() ? nullptr : display.c_str(), nullptr);
  if (xcb_connection_has_error(c_)) {
    xcb_disconnect(c_);
    throw std::runtime_error("cannot open the display " + (display.empty() ? std::string("$DISPLAY") : display));
  }
  try {
    const xcb_setup_t* setup = xcb_get_setup(c_);
    const xcb_screen_t* screen = xcb_setup_roots_iterator(setup).data;
    root_ = screen->root;
    if (x_ < 0 || y_ < 0 || screen->width_in_pixels < x_ + width_ || screen->height_in_pixels < y_ + height_)
      throw std::runtime_error("the marker strip at " + std::to_string(x_) + "," + std::to_string(y_) +
                               " is not all on the screen");
    const xcb_visualtype_t* visual = root_visual(screen);
    if (!visual || bits_per_pixel(setup, screen->root_depth) != 32)
      throw std::runtime_error("the root window is not 32 bits per pixel");
    red_shift_ = channel_shift(visual->red_mask);
    green_shift_ = channel_shift(visual->green_mask);
    blue_shift_ = channel_shift(visual->blue_mask);
    if (red_shift_ < 0 || green_shift_ < 0 || blue_shift_ < 0)
      throw std::runtime_error("the root visual's colour masks are not 8 bits each");
    msb_first_ = setup->image_byte_order == XCB_IMAGE_ORDER_MSB_FIRST;

    const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c_, &xcb_damage_id);
    if (!ext || !ext->present) throw std::runtime_error("the X server has no DAMAGE extension");
    // The version handshake must come before any other DAMAGE request.
    XcbReply<xcb_damage_query_version_reply_t> version(
        xcb_damage_query_version_reply(c_, xcb_damage_query_version(c_, 1, 1), nullptr));
    if (!version) throw std::runtime_error("the X server's DAMAGE did not answer");
    damage_event_ = uint8_t(ext->first_event + XCB_DAMAGE_NOTIFY);
    damage_ = xcb_generate_id(c_);
    // One notification each time the root goes from clean to damaged: a
    // frame costs one event, however many requests drew it.
    XcbReply<xcb_generic_error_t> err(xcb_request_check(
        c_, xcb_damage_create_checked(c_, damage_, root_, XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY)));
    if (err) throw std::runtime_error("cannot track damage on the root window (X error " +
                                      std::to_string(err->error_code) + ")");
  } catch (...) {
    xcb_disconnect(c_);
    throw;
  }
}

MarkerStrip::~MarkerStrip() { xcb_disconnect(c_); }

int MarkerStrip::fd() const { return xcb_get_file_descriptor(c_); }

MarkerStrip::Next MarkerStrip::next(MarkerStripImage& out) {
  bool damaged = false;
  while (xcb_generic_event_t* e = xcb_poll_for_event(c_)) {
    if ((e->response_type & 0x7f) == damage_event_) damaged = true;
    std::free(e);
  }
  if (xcb_connection_has_error(c_)) {
    error_ = "the X connection broke";
    return Next::kFailed;
  }
  if (!damaged) return Next::kNothing;
  xcb_damage_subtract(c_, damage_, XCB_NONE, XCB_NONE);
  if (read(out)) return Next::kRead;
  if (xcb_connection_has_error(c_)) {
    error_ = "the X connection broke";
    return Next::kFailed;
  }
  ++failed_reads_;
  return Next::kNothing;
}

bool MarkerStrip::read(MarkerStripImage& out) {
  XcbReply<xcb_get_image_reply_t> img(xcb_get_image_reply(
      c_,
      xcb_get_image(c_, XCB_IMAGE_FORMAT_Z_PIXMAP, root_, int16_t(x_), int16_t(y_), uint16_t(width_),
                    uint16_t(height_), ~0u),
      nullptr));
  if (!img) return false;
  const int length = xcb_get_image_data_length(img.get());
  // 32 bits per pixel: rows need no padding.
  if (length < width_ * height_ * 4) return false;
  const uint8_t* p = xcb_get_image_data(img.get());
  out.width = width_;
  out.height = height_;
  out.luma.resize(size_t(width_) * size_t(height_));
  for (size_t i = 0; i < out.luma.size(); ++i, p += 4) {
    const uint32_t v = msb_first_ ? uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]
                                  : uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0];
    const uint32_t r = (v >> red_shift_) & 0xff, g = (v >> green_shift_) & 0xff, b = (v >> blue_shift_) & 0xff;
    out.luma[i] = uint8_t((299 * r + 587 * g + 114 * b) / 1000);
  }
  return true;
}

}  // namespace voxl::bench
