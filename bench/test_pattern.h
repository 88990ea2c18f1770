// The known picture the benchmark captures: a deterministic pseudo-random
// pattern in a window that covers the whole screen. Every pixel differs from
// its neighbours in every channel, so a crop, an offset, a stride or a
// channel-order mistake in any source shows up when frames are compared.
//
// The window is override-redirect (no window manager moves or decorates it)
// and carries an empty cursor. A cursor drawn in software (Xvfb shows one
// when started with -retro, or when a client sets one) lands in the
// framebuffer source's frames only; GetImage and ShmGetImage hide it. The
// comparison would then fail for a reason that has nothing to do with
// capture.
#pragma once

#include <cstdint>
#include <string>

#include <xcb/xcb.h>

#include "base/geometry.h"
#include "platform/x11/xcb_connection.h"

namespace voxl::bench {

class PatternWindow {
 public:
  // Connects to `display`, maps the window and paints it; returns once the
  // server has drawn everything. Throws std::runtime_error on any X error.
  explicit PatternWindow(const std::string& display);
  PatternWindow(const PatternWindow&) = delete;
  PatternWindow& operator=(const PatternWindow&) = delete;

  Size screen() const { return screen_; }

  // The colour (0x00RRGGBB) the pattern has at root pixel (x, y).
  static uint32_t color_at(int x, int y);

 private:
  xcb_cursor_t create_empty_cursor();
  void create_window(xcb_cursor_t cursor);
  void paint();

  // Owns the window: it stays on screen while this connection is open.
  platform::x11::XcbConnection conn_;
  Size screen_;
  xcb_window_t window_ = 0;
};

}  // namespace voxl::bench
