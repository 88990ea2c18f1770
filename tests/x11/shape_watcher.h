// A client of a test's X display that hears ShapeNotify for the windows
// it is told about, and reads windows' shapes, titles and the root's
// pixels (rounded windows, tests/x11 and tests/stream). Every call that
// changes something returns after the server has processed it.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <xcb/shape.h>
#include <xcb/xcb.h>

#include "base/geometry.h"

namespace voxl::testing {

class ShapeWatcher {
 public:
  explicit ShapeWatcher(const std::string& display);
  ~ShapeWatcher();
  ShapeWatcher(const ShapeWatcher&) = delete;
  ShapeWatcher& operator=(const ShapeWatcher&) = delete;

  // ShapeNotify for `w` from now on.
  void watch(xcb_window_t w);
  void sync();
  // Waits up to `limit` for a ShapeNotify (bounding) on `w` for which
  // `done` holds.
  bool wait_for(xcb_window_t w, const std::function<bool(const xcb_shape_notify_event_t&)>& done,
                std::chrono::milliseconds limit = std::chrono::seconds(30));
  // `w` is shaped now, or becomes shaped within the wait (watch() first).
  bool becomes_shaped(xcb_window_t w);
  std::vector<Rect> bounding(xcb_window_t w);
  bool shaped(xcb_window_t w);
  uint32_t pixel(int x, int y);  // the screen at root (x, y), 0x00RRGGBB
  void set_title(xcb_window_t w, const std::string& title);  // _NET_WM_NAME
  // The root's own background, which the server paints where no window is.
  void root_background(uint32_t rgb);

 private:
  xcb_connection_t* c_;
  xcb_window_t root_;
};

}  // namespace voxl::testing
