// The frame rate the video thread paces captures at, traded against the
// quantiser: when the link (the encoder's bitrate cap) cannot carry the
// content at an acceptable quality at the full frame rate, fewer and
// sharper frames beat many blurred ones; when there is room again, the rate
// goes back up.
//
// The quality signal is x264's effective rate factor of each motion frame
// (a P frame that is neither a key frame nor a paintover) above the
// configured CRF: 0 while the VBV cap does not bind, and about +6 for every
// halving of the bits the cap lets a frame have. The rule, with that excess
// smoothed over the last few frames:
// - above kCeiling (the cap costs more than kCeiling rate-factor steps):
//   lower the rate by kDown, at most every kDownEvery, not below min_fps;
// - below kCeiling - kHysteresis - the cost of the step up (6 * log2(kUp),
//   what the same link would charge each frame at the higher rate): raise
//   it by kUp, at most every kUpEvery, not above max_fps.
// A change waits for kSettleFrames motion frames at the current rate, so
// each step is judged by frames coded at it. Sharper frames cost their
// bytes at once: the caller gives the encoder each frame's share of the cap
// at the chosen rate (X264Encoder::set_frame_rate).
//
// A ceiling (set_ceiling: the highest frame rate any viewer allows) caps
// what fps() says without touching the governed rate: the rule steps down
// from the capped rate and never climbs past the ceiling, and when the
// ceiling lifts the rate is what the link allowed before.
//
// Smooth (set_smooth: Motion::kSmooth, or kAuto judging the content
// moving) holds the rate at the ceiling: the rule still follows the excess
// but takes no step. Leaving it, the rule starts again from the ceiling.
//
// Pure logic with no clock of its own (callers pass steady_clock times). One
// owner (the video thread); not thread-safe.
#pragma once

#include <algorithm>
#include <chrono>

namespace voxl::stream {

class FrameRateGovernor {
 public:
  using Clock = std::chrono::steady_clock;

  static constexpr double kCeiling = 6;
  static constexpr double kHysteresis = 1.5;
  static constexpr double kDown = 0.8;
  static constexpr double kUp = 1.25;
  static constexpr auto kDownEvery = std::chrono::milliseconds(250);
  static constexpr auto kUpEvery = std::chrono::milliseconds(750);
  static constexpr int kSettleFrames = 4;
  // Smoothing of the excess: the weight of the newest frame.
  static constexpr double kWeight = 0.25;

  // min_fps <= max_fps; min_fps == max_fps locks the rate.
  FrameRateGovernor(int min_fps, int max_fps);

  // A motion frame was coded with rate factor `rate_factor` where the
  // configured CRF is `crf`.
  void on_motion_frame(double rate_factor, double crf, Clock::time_point now);

  // The rate to pace at: the governed rate under the ceiling.
  int fps() const { return std::min(fps_, ceiling_); }
  // Holds the rate at the ceiling while `smooth`.
  void set_smooth(bool smooth);
  bool smooth() const { return smooth_; }
  // At most `fps` (1..max_fps; out of range is clamped) from now on.
  void set_ceiling(int fps);
  int ceiling() const { return ceiling_; }
  // The smoothed excess rate factor of the last motion frames.
  double excess() const { return excess_; }

 private:
  int min_fps_;
  int max_fps_;
  int fps_;
  int ceiling_;
  double excess_ = 0;
  bool smooth_ = false;
  int frames_at_rate_ = 0;
  Clock::time_point changed_at_{};
};

}  // namespace voxl::stream
