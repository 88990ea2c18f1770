// --max-encodes: how many rungs of the encoding ladder this machine can
// afford to code. Every rung is coded on the video thread one after the
// other from the same converted picture, so a picture costs the
// conversion plus every rung's encode; when that no longer fits in the
// frame interval, every viewer's frame rate would fall. The ladder shrinks
// first. The rule, on the work per picture (the video thread's conversion
// and encodes) over one-second windows, as a share of the frame intervals
// the window's pictures had:
// - shrink by one rung (never below one) after a window whose pictures
//   mostly coded two or more rungs and took more than kShrinkShare of their
//   intervals; each shrink holds for kRegrowHold;
// - grow by one rung (up to --max-encodes) when, after the hold,
//   kGrowWindows windows in a row had an estimate with one more rung (the
//   window's share times (rungs + 1) / rungs, as a lower rung costs about
//   what the top one does at ultrafast) under kGrowShare.
// A window, not a single picture: one slow picture (a key frame, a burst of
// damage) is no sign the machine cannot keep up.
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

  static constexpr auto kWindow = std::chrono::milliseconds(1000);
  static constexpr double kShrinkShare = 0.9;
  static constexpr double kGrowShare = 0.6;
  static constexpr int kGrowWindows = 3;
  static constexpr auto kRegrowHold = std::chrono::seconds(10);

  explicit LadderBudget(int max_rungs);

  // A picture coded `rungs` rungs (>= 1) with `work_us` of conversion and
  // encodes on the video thread, at frames `interval_us` apart.
  void on_picture(int rungs, double work_us, double interval_us, Clock::time_point now);

  // Rung `rungs` cannot be coded (its encoder could not be made): the
  // budget stays below it until uncap() (a new picture size).
  void cap(int rungs);
  void uncap() { ceiling_ = max_; }

  int rungs() const { return rungs_; }       // the rungs the machine affords now
  int max_rungs() const { return max_; }
  int shrinks() const { return shrinks_; }   // how often it shrank
  double work_share() const { return share_; }  // the last window's work / its intervals

 private:
  void close_window(Clock::time_point now);

  int max_;
  int ceiling_;  // max_, or less after cap()
  int rungs_;
  int shrinks_ = 0;
  double share_ = 0;
  // The window being summed.
  std::optional<Clock::time_point> window_start_;
  double work_us_ = 0;
  double interval_us_ = 0;
  int pictures_ = 0;
  int multi_rung_ = 0;   // pictures that coded two or more rungs
  int top_rungs_ = 1;    // the most rungs a picture of the window coded
  int under_windows_ = 0;  // windows in a row whose growth estimate fitted
  std::optional<Clock::time_point> hold_until_;
};

}  // namespace voxl::stream
