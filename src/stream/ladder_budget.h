// --max-encodes: how many rungs of the encoding ladder this machine can
// afford to code. Every rung is coded on the video thread one after the
// other from the same converted picture, so a picture costs the
// conversion plus every rung's encode; when that no longer fits in the
// frame interval, every viewer's frame rate would fall. The ladder shrinks
// first. The rule, on the smoothed work per picture (the video thread's
// conversion and encodes, weight kWeight for the newest picture):
// - shrink by one rung (never below one) when pictures coding two or more
//   rungs took more than kShrinkShare of the frame interval for kShrinkAfter
//   in a row; each shrink holds for kRegrowHold;
// - grow by one rung (up to --max-encodes) when, after the hold, the
//   estimate with one more rung (the work per picture times (rungs + 1) /
//   rungs, as a lower rung costs about what the top one does at ultrafast)
//   stayed under kGrowShare of the interval for kGrowAfter in a row.
// The budget caps the rungs the hub plans (RungPlanner); a shrink moves the
// viewers of the rung taken away up at once.
//
// Pure logic with no clock of its own (callers pass steady_clock times). One
// owner (the video thread); not thread-safe.
#pragma once

#include <chrono>
#include <optional>

namespace voxl::stream {

class LadderBudget {
 public:
  using Clock = std::chrono::steady_clock;

  static constexpr double kWeight = 0.2;
  static constexpr double kShrinkShare = 0.9;
  static constexpr auto kShrinkAfter = std::chrono::milliseconds(1000);
  static constexpr double kGrowShare = 0.6;
  static constexpr auto kGrowAfter = std::chrono::milliseconds(3000);
  static constexpr auto kRegrowHold = std::chrono::seconds(10);

  explicit LadderBudget(int max_rungs);

  // A picture coded `rungs` rungs (>= 1) with `work_us` of conversion and
  // encodes on the video thread, at frames `interval_us` apart.
  void on_picture(int rungs, double work_us, double interval_us, Clock::time_point now);

  int rungs() const { return rungs_; }       // the rungs the machine affords now
  int max_rungs() const { return max_; }
  int shrinks() const { return shrinks_; }   // how often it shrank
  double work_share() const { return share_; }  // smoothed work per picture / interval

 private:
  int max_;
  int rungs_;
  int shrinks_ = 0;
  double share_ = 0;
  bool any_ = false;
  std::optional<Clock::time_point> over_since_;   // multi-rung pictures over kShrinkShare since
  std::optional<Clock::time_point> under_since_;  // growth estimate under kGrowShare since
  std::optional<Clock::time_point> hold_until_;
};

}  // namespace voxl::stream
