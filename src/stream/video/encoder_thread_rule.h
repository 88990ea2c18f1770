// --adaptive-threads: how many slice threads x264 gets, from how long the
// last frames took to encode. One thread while the screen is still or
// changes little (one thread codes a frame with the least overhead and no
// slice boundaries); `max_threads` only after sustained heavy motion; back
// to one once it has calmed down. The rule:
// - up: at least kUpFrames of the last kWindow motion frames took more than
//   kUpShare of the frame interval to encode on one thread;
// - down: kDownFrames motion frames in a row would take, on one thread, less
//   than kDownShare of the interval (the time measured at N threads times
//   N: slices scale about linearly on these sizes, so the estimate errs
//   towards staying up), or the screen was still for kQuiet;
// - after a switch, nothing for kSettleFrames frames: the first frames of a
//   new encoder start with a key frame, and their times say nothing.
// The gap between kUpShare and kDownShare is the hysteresis. x264 cannot
// change its thread count on an open encoder (x264_encoder_reconfig keeps
// it), so each switch opens a new encoder and starts with a key frame: the
// rule switches seldom on purpose.
//
// Pure logic with no clock of its own (callers pass steady_clock times). One
// owner (the video thread); not thread-safe.
#pragma once

#include <chrono>
#include <deque>

namespace voxl::stream {

class EncoderThreadRule {
 public:
  using Clock = std::chrono::steady_clock;

  static constexpr double kUpShare = 0.6;
  static constexpr size_t kWindow = 12;
  static constexpr size_t kUpFrames = 8;
  static constexpr double kDownShare = 0.25;
  static constexpr int kDownFrames = 90;
  static constexpr auto kQuiet = std::chrono::seconds(3);
  static constexpr int kSettleFrames = 8;

  // max_threads >= 1; 1 keeps one thread always.
  explicit EncoderThreadRule(int max_threads);

  // A motion frame (a P frame of new content, not a key frame or a
  // paintover) took `encode_us` at the current thread count, with frames
  // `interval_us` apart at the current frame rate.
  void on_motion_frame(double encode_us, double interval_us, Clock::time_point now);
  // Any frame (a key frame, a paintover, a switch's first frame): counts
  // towards the settling after a switch.
  void on_frame();
  // Checks the quiet rule; call before each encode.
  void on_tick(Clock::time_point now);

  int threads() const { return threads_; }
  int max_threads() const { return max_threads_; }
  int switches() const { return switches_; }

 private:
  void set(int threads);

  int max_threads_;
  int threads_ = 1;
  int switches_ = 0;
  int settle_ = 0;
  std::deque<bool> heavy_;  // the last kWindow motion frames: over kUpShare on one thread
  int light_run_ = 0;       // motion frames in a row under kDownShare on one thread
  Clock::time_point last_motion_{};
};

}  // namespace voxl::stream
