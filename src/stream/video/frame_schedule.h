// The video pipeline's decisions between captures, as pure logic: how long
// to wait for damage, and whether a capture that found nothing new codes a
// paintover frame (sharpening the last change, or the switch of a still
// screen to 4:4:4) or nothing. The pacing (FramePacer), the frame rate
// (FrameRateGovernor), the 4:2:0/4:4:4 choice (ChromaPolicy) and the
// thread count (EncoderThreadRule) are their own classes; the pipeline
// (video_pipeline.cpp) only waits and calls them.
//
// Paintover: once the screen has been still for `delay` after a change, the
// picture is coded again `burst` times at the paintover CRF (x264 codes only
// the difference), each only while some viewer can take a frame (not
// paused); the burst ends early when a paintover comes out settled (small,
// not starved). Its first frame banks the VBV bits of the stillness and its
// second spends them (gap_budget()).
//
// Pure logic with no clock of its own (callers pass steady_clock times). One
// owner (the video thread); not thread-safe.
#pragma once

#include <chrono>
#include <optional>

#include "encode/video_encoder.h"

namespace voxl::stream {

class FrameSchedule {
 public:
  using Clock = std::chrono::steady_clock;

  // burst 0: no paintover at all.
  FrameSchedule(int burst, Clock::duration delay);

  // A change was captured (and will be coded) at `at`: a new burst waits
  // for the stillness after it.
  void on_change(Clock::time_point at);
  bool have_picture() const { return have_picture_; }
  Clock::time_point changed_at() const { return changed_at_; }
  // The stillness after the last change that a paintover waits for.
  Clock::time_point still_from() const { return changed_at_ + delay_; }

  // When the next paintover of the burst falls due; nullopt when none is left.
  std::optional<Clock::time_point> paintover_due() const;
  // How long to wait for damage at `now`: until the next paintover or
  // `other_due` (the switch to 4:4:4), whichever is first, at most `longest`;
  // never negative.
  std::chrono::milliseconds damage_wait(Clock::time_point now, std::optional<Clock::time_point> other_due,
                                        std::chrono::milliseconds longest) const;

  // A capture at `now` found nothing new. True: code a paintover frame now
  // (a sharpening frame of the burst is used up, or `switch_due` has come:
  // the still screen switches to 4:4:4). False while nothing is due, or
  // while `paused` (no viewer can take a frame: it waits).
  bool paintover_now(Clock::time_point now, std::optional<Clock::time_point> switch_due, bool paused);
  // After a switch to 4:4:4: the burst refines its key frame with up to
  // `frames` frames in all.
  void extend_burst(int frames);
  // The last paintover found nothing left to sharpen.
  void end_burst() { left_ = 0; }
  int burst_left() const { return left_; }

  // How the frame about to be coded budgets its bits: the burst's first
  // frame banks the stillness (when more of the burst follows), its second
  // spends what was banked; every other frame, one interval.
  encode::VideoEncoder::GapBudget gap_budget() const;

 private:
  int burst_;
  Clock::duration delay_;
  int left_ = 0;  // paintover frames still to come after the last change
  int nth_ = 0;   // paintover frames coded since the last change
  bool have_picture_ = false;
  Clock::time_point changed_at_{};
};

}  // namespace voxl::stream
