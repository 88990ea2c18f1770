// voxl-demo's frame pace: a timerfd that fires `fps` times a second (the
// event loop sleeps in poll() on it and on the X connection, so nothing
// spins), and the frame counter with the rate measured over the last
// second, as the header shows them.
//
// Not thread-safe: the X thread only. Owns its timerfd.
#pragma once

#include <cstdint>

namespace voxl::demo {

class FrameClock {
 public:
  // Throws std::runtime_error when the timer cannot be made.
  explicit FrameClock(int fps);
  ~FrameClock();
  FrameClock(const FrameClock&) = delete;
  FrameClock& operator=(const FrameClock&) = delete;

  int fd() const { return fd_; }
  // After poll() said fd() is readable: takes the expiry and counts a
  // frame. Ticks missed while the process was late are not made up.
  void tick();

  uint64_t frame() const { return frame_; }
  // Frames in the last whole second measured; 0 before the first.
  int measured_fps() const { return measured_fps_; }

 private:
  int fd_ = -1;
  uint64_t frame_ = 0;
  int64_t window_start_ns_ = 0;
  uint64_t window_start_frame_ = 0;
  int measured_fps_ = 0;
};

}  // namespace voxl::demo
