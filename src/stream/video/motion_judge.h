// Motion::kAuto's judgement of the content: is a large part of the picture
// moving continuously, as a video, a game, an animation or a 3D view does?
// Text being typed, a menu opening or a window dragged for a moment is not.
//
// The rule, from the captures that changed:
// - a capture counts as moving when its damage covers at least kMinShare
//   of the picture (smaller changes neither count nor break a streak);
// - moving captures at most max(kMaxGap, 3 frame intervals) apart make one
//   streak; a streak of kEnter makes the content moving;
// - it stays moving until no capture has moved for kLeave.
// So a scroll of a long page held for over kEnter counts as motion too;
// the person who wants text sharp then chooses "sharp".
//
// Pure logic with no clock of its own. One owner (the video thread); not
// thread-safe.
#pragma once

#include <chrono>
#include <span>

#include "base/geometry.h"

namespace voxl::stream {

class MotionJudge {
 public:
  using Clock = std::chrono::steady_clock;

  static constexpr double kMinShare = 0.05;
  static constexpr auto kMaxGap = std::chrono::milliseconds(200);
  static constexpr auto kEnter = std::chrono::milliseconds(1500);
  static constexpr auto kLeave = std::chrono::milliseconds(1000);

  // A capture at `at` changed `share` (0..1) of the picture; captures are
  // `interval` apart at the pacer's rate.
  void on_change(Clock::time_point at, double share, Clock::duration interval);
  bool moving(Clock::time_point now) const;

 private:
  bool moving_ = false;
  bool seen_ = false;
  Clock::time_point streak_start_{};
  Clock::time_point last_moving_{};
};

// The share of a picture of `size` that `rects` cover (overlaps counted
// twice, at most 1): the damage rectangles are disjoint in practice.
double damage_share(std::span<const Rect> rects, Size size);

}  // namespace voxl::stream
