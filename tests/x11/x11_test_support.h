// Helpers for tests against a private Xvfb: a second X client that draws
// known content, a deterministic pattern, captures with a deadline, log
// capture and shared-memory accounting.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <xcb/xcb.h>

#include "base/geometry.h"
#include "base/logging.h"
#include "capture/capturer.h"
#include "capture/frame_pool.h"
#include "../common/capture_checks.h"

namespace voxl::testing {

// The colour the pattern has at root pixel (x, y): varies in every pixel
// and every channel, so crops and offsets show up as mismatches.
uint32_t pattern_at(int x, int y);

// A separate X client that draws; every call returns after the server has
// processed it.
class Painter {
 public:
  explicit Painter(const std::string& display);
  ~Painter();
  Painter(const Painter&) = delete;
  Painter& operator=(const Painter&) = delete;

  xcb_connection_t* conn() const { return c_; }
  xcb_window_t root() const { return root_; }
  void fill(xcb_drawable_t d, const Rect& r, uint32_t rgb);
  // Paints `r` of the root window (root coordinates) with pixel(x, y),
  // called once per pixel in row order, in as few PutImage requests as the
  // server's request size allows.
  void paint(const Rect& r, const std::function<uint32_t(int x, int y)>& pixel);
  void paint_pattern(const Rect& r);  // pattern_at on the root window
  // Random pixels from `seed` on the root window: content no encoder can
  // compress, different for every seed.
  void paint_noise(const Rect& r, uint32_t seed);
  // A mapped override-redirect window with a solid background.
  xcb_window_t create_window(const Rect& r, uint32_t rgb);
  void resize_window(xcb_window_t w, Size s);
  void move_window(xcb_window_t w, Point p);
  void unmap_window(xcb_window_t w);
  void destroy_window(xcb_window_t w);
  void sync();

 private:
  xcb_connection_t* c_ = nullptr;
  xcb_window_t root_ = 0;
  xcb_gcontext_t gc_ = 0;
};

// A logger that keeps what it logs, for assertions.
struct CapturedLog {
  Logger log;
  int count(spdlog::level::level_enum level) const;
  std::vector<std::string> messages() const;
};
CapturedLog make_captured_log();

// SysV segments created by this process that still exist.
int sysv_segments_of_this_process();
// Mappings of capture memfd segments in this process.
int capture_memfd_mappings();
int open_fd_count();

}  // namespace voxl::testing
