// When the video thread may capture next, so that `--framerate` caps the
// rate without adding latency: a generic cell rate algorithm (GCRA, a token
// bucket kept as one time stamp) that lets a frame go up to one interval
// early. An application drawing at the cap is captured as soon as its
// drawing lands, whatever the phase between its clock and ours; a fixed
// grid of slots would instead hold each of its frames back by up to a whole
// interval (half on average). Over any stretch, at most one frame more than
// the cap goes out.
//
// Pure logic with no clock of its own (callers pass steady_clock times). One
// owner (the video thread); not thread-safe.
#pragma once

#include <chrono>

namespace voxl::stream {

class FramePacer {
 public:
  using Clock = std::chrono::steady_clock;

  explicit FramePacer(int max_fps);

  // The earliest time the next capture may happen.
  Clock::time_point earliest() const { return due_ - interval_; }
  // A frame was captured at `at`.
  void on_capture(Clock::time_point at);
  // Capturing failed at `at`: try again no sooner than one interval later.
  void back_off(Clock::time_point at) { due_ = at + 2 * interval_; }

  Clock::duration interval() const { return interval_; }

 private:
  Clock::duration interval_;
  Clock::time_point due_{};  // when the next frame is due on the cap's schedule
};

}  // namespace voxl::stream
