#include "stream/video/ladder_budget.h"

#include <algorithm>

namespace voxl::stream {

LadderBudget::LadderBudget(int max_rungs) : max_(std::max(1, max_rungs)), ceiling_(max_), rungs_(max_) {}

void LadderBudget::cap(int rungs) {
  ceiling_ = std::clamp(rungs, 1, max_);
  rungs_ = std::min(rungs_, ceiling_);
}

void LadderBudget::on_picture(int rungs, double work_us, double interval_us, Clock::time_point now) {
  if (rungs < 1 || interval_us <= 0) return;
  if (!window_start_) window_start_ = now;
  work_us_ += std::max(0.0, work_us);
  interval_us_ += interval_us;
  ++pictures_;
  if (rungs >= 2) ++multi_rung_;
  top_rungs_ = std::max(top_rungs_, rungs);
  if (now - *window_start_ >= kWindow) close_window(now);
}

void LadderBudget::close_window(Clock::time_point now) {
  share_ = work_us_ / interval_us_;
  const bool ladder = multi_rung_ * 2 > pictures_;  // mostly pictures of several rungs
  const int coded = top_rungs_;
  window_start_ = now;
  work_us_ = interval_us_ = 0;
  pictures_ = multi_rung_ = 0;
  top_rungs_ = 1;
  if (ladder && share_ > kShrinkShare && rungs_ > 1) {
    rungs_ = std::max(1, std::min(rungs_, coded) - 1);
    ++shrinks_;
    hold_until_ = now + kRegrowHold;
    under_windows_ = 0;
    return;
  }
  if (rungs_ >= ceiling_ || (hold_until_ && now < *hold_until_)) {
    under_windows_ = 0;
    return;
  }
  // The estimate for one rung more, from the rungs coded now.
  const int rungs = ladder ? std::max(2, coded) : 1;
  under_windows_ = share_ * double(rungs + 1) / double(rungs) < kGrowShare ? under_windows_ + 1 : 0;
  if (under_windows_ >= kGrowWindows) {
    ++rungs_;
    under_windows_ = 0;
  }
}

}  // namespace voxl::stream
