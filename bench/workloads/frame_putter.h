// Puts whole frames of client-side pixels into a window in one request, so
// the X server (and any capturer) sees each frame complete, never half of
// one: MIT-SHM PutImage from a shared segment, or, where the server has no
// MIT-SHM, plain PutImage in row strips (which can then be seen torn).
//
// Not thread-safe: one thread. Borrows the connection and window; owns its
// segment (or buffer) and detaches it on destruction.
#pragma once

#include <xcb/xcb.h>

#include <cstdint>
#include <vector>

namespace voxl::bench {

class FramePutter {
 public:
  FramePutter(xcb_connection_t* c, xcb_window_t w, int width, int height, uint8_t depth);
  ~FramePutter();
  FramePutter(const FramePutter&) = delete;
  FramePutter& operator=(const FramePutter&) = delete;

  // The frame to fill: width x height pixels, 0x00RRGGBB, stride width.
  // Safe to write once put() has returned.
  uint32_t* pixels() { return pixels_; }
  // Sends the frame and waits until the X server has copied it.
  void put();
  bool shared() const { return shmid_ >= 0; }

 private:
  xcb_connection_t* c_;
  xcb_window_t w_;
  xcb_gcontext_t gc_;
  int width_, height_;
  uint8_t depth_;
  int shmid_ = -1;
  uint32_t seg_ = 0;
  uint32_t* pixels_ = nullptr;
  std::vector<uint32_t> local_;  // without MIT-SHM
};

}  // namespace voxl::bench
