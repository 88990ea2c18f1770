#include "test_pattern.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "platform/x11/xcb_util.h"

namespace voxl::bench {

namespace {

using platform::x11::check_request;

// PutImage's fixed part; the pixels follow it in the same request.
constexpr size_t kPutImageHeaderBytes = 24;
// Painting in slices of about this size keeps the client-side buffer small;
// the server's maximum request length may lower it further.
constexpr size_t kSliceBudgetBytes = size_t{1} << 20;

void expect_ok(xcb_connection_t* c, xcb_void_cookie_t cookie, const char* what) {
  const std::string err = check_request(c, cookie);
  if (!err.empty()) throw std::runtime_error(std::string("test pattern: ") + what + ": " + err);
}

}  // namespace

uint32_t PatternWindow::color_at(int x, int y) {
  // An integer hash of the position: cheap, repeatable, no visible structure.
  uint32_t h = uint32_t(x) * 0x9E3779B1u ^ uint32_t(y + 0x5bd1) * 0x85EBCA77u;
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> 16;
  return h & 0xffffffu;
}

PatternWindow::PatternWindow(const std::string& display)
    : conn_(display), screen_(conn_.root_size()) {
  if (conn_.root_depth() != 24 || conn_.root_bits_per_pixel() != 32)
    throw std::runtime_error("test pattern: the screen is depth " +
                             std::to_string(conn_.root_depth()) + " at " +
                             std::to_string(conn_.root_bits_per_pixel()) +
                             " bits per pixel; the pattern needs depth 24 at 32");
  create_window(create_empty_cursor());
  paint();
  conn_.sync();
}

xcb_cursor_t PatternWindow::create_empty_cursor() {
  xcb_connection_t* c = conn_.get();
  // A 1x1 bitmap cleared to 0 as both source and mask: nothing is drawn.
  const xcb_pixmap_t bitmap = xcb_generate_id(c);
  expect_ok(c, xcb_create_pixmap_checked(c, 1, bitmap, conn_.root(), 1, 1), "create bitmap");
  const xcb_gcontext_t gc = xcb_generate_id(c);
  const uint32_t zero = 0;
  xcb_create_gc(c, gc, bitmap, XCB_GC_FOREGROUND, &zero);
  const xcb_rectangle_t all{0, 0, 1, 1};
  xcb_poly_fill_rectangle(c, bitmap, gc, 1, &all);
  const xcb_cursor_t cursor = xcb_generate_id(c);
  expect_ok(c, xcb_create_cursor_checked(c, cursor, bitmap, bitmap, 0, 0, 0, 0, 0, 0, 0, 0),
            "create empty cursor");
  xcb_free_gc(c, gc);
  xcb_free_pixmap(c, bitmap);
  return cursor;
}

void PatternWindow::create_window(xcb_cursor_t cursor) {
  xcb_connection_t* c = conn_.get();
  window_ = xcb_generate_id(c);
  // Values in the order of their mask bits. No background: mapping must not
  // clear what paint() is about to draw.
  const uint32_t values[] = {1 /* override-redirect */, cursor};
  expect_ok(c,
            xcb_create_window_checked(c, XCB_COPY_FROM_PARENT, window_, conn_.root(), 0, 0,
                                      uint16_t(screen_.width), uint16_t(screen_.height), 0,
                                      XCB_WINDOW_CLASS_INPUT_OUTPUT, conn_.screen()->root_visual,
                                      XCB_CW_OVERRIDE_REDIRECT | XCB_CW_CURSOR, values),
            "create window");
  xcb_free_cursor(c, cursor);  // the window keeps its own reference
  expect_ok(c, xcb_map_window_checked(c, window_), "map window");
}

void PatternWindow::paint() {
  xcb_connection_t* c = conn_.get();
  const size_t row_bytes = size_t(screen_.width) * 4;
  const size_t max_request = size_t(xcb_get_maximum_request_length(c)) * 4;
  const size_t budget = std::min(kSliceBudgetBytes, max_request - kPutImageHeaderBytes);
  const int rows_per_slice = int(std::min<size_t>(budget / row_bytes, size_t(screen_.height)));
  if (rows_per_slice < 1)
    throw std::runtime_error("test pattern: one screen row does not fit in an X request");

  const xcb_gcontext_t gc = xcb_generate_id(c);
  xcb_create_gc(c, gc, window_, 0, nullptr);
  std::vector<uint32_t> slice(size_t(screen_.width) * size_t(rows_per_slice));
  std::vector<xcb_void_cookie_t> cookies;
  for (int y0 = 0; y0 < screen_.height; y0 += rows_per_slice) {
    const int rows = std::min(rows_per_slice, screen_.height - y0);
    for (int y = 0; y < rows; ++y)
      for (int x = 0; x < screen_.width; ++x)
        slice[size_t(y) * size_t(screen_.width) + size_t(x)] = color_at(x, y0 + y);
    cookies.push_back(xcb_put_image_checked(
        c, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, gc, uint16_t(screen_.width), uint16_t(rows), 0,
        int16_t(y0), 0, uint8_t(conn_.root_depth()), uint32_t(row_bytes * size_t(rows)),
        reinterpret_cast<const uint8_t*>(slice.data())));
  }
  // Checked afterwards, so the slices stream without a round trip each.
  for (const xcb_void_cookie_t& cookie : cookies) expect_ok(c, cookie, "put image");
  xcb_free_gc(c, gc);
}

}  // namespace voxl::bench
