// When the video thread may capture next, so that `--framerate` caps the
// rate without adding latency: a generic cell rate algorithm (GCRA, a token
// bucket kept as one time stamp) that lets a frame go up to one interval
// early. An application drawing at the cap is captured as soon as its
// drawing lands, whatever the phase between its clock and ours; a fixed
// grid of slots would instead hold each of its frames back by up to a whole
// interval (half on average).
//
// The bucket refills at one frame a second more than the cap. At exactly
// the cap it would never refill while an application draws at the cap: one
// extra capture (half a drawing taken early, a key frame, a paintover)
// would use up the early frame for good, and every later capture would be
// held to the pacer's own phase by whatever that extra capture left over,
// a delay fixed for the rest of the run and different in every run. With
// the extra frame a second the bucket refills by 1/(cap+1) of a frame per
// captured frame, so after any disturbance the captures converge back onto
// the damage within about a second. Over any stretch of n seconds, at most
// n * (cap + 1) + 1 frames go out.
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

  // From the next capture on, at most `max_fps` (FrameRateGovernor moves it).
  void set_max_fps(int max_fps);

  // 1 / max_fps.
  Clock::duration interval() const { return interval_; }

 private:
  Clock::duration interval_;
  Clock::duration step_;     // 1 / (max_fps + 1): what one capture costs
  Clock::time_point due_{};  // when the next frame is due on the bucket's schedule
};

}  // namespace voxl::stream
