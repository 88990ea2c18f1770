#include "stream/ladder_budget.h"

#include <algorithm>

namespace voxl::stream {

LadderBudget::LadderBudget(int max_rungs) : max_(std::max(1, max_rungs)), rungs_(max_) {}

void LadderBudget::on_picture(int rungs, double work_us, double interval_us, Clock::time_point now) {
  if (rungs < 1 || interval_us <= 0) return;
  const double share = std::max(0.0, work_us) / interval_us;
  share_ = any_ ? share_ + kWeight * (share - share_) : share;
  any_ = true;
  // Shrink: only pictures that coded several rungs say the ladder costs too much.
  if (rungs >= 2 && share_ > kShrinkShare) {
    if (!over_since_) over_since_ = now;
    if (now - *over_since_ >= kShrinkAfter && rungs_ > 1) {
      rungs_ = std::max(1, std::min(rungs_, rungs) - 1);
      ++shrinks_;
      hold_until_ = now + kRegrowHold;
      over_since_.reset();
      under_since_.reset();
      share_ = share_ * double(rungs_) / double(rungs);  // what one rung fewer will cost
      return;
    }
  } else {
    over_since_.reset();
  }
  // Grow: the estimate for one rung more, from the rungs coded now.
  if (rungs_ >= max_ || (hold_until_ && now < *hold_until_)) {
    under_since_.reset();
    return;
  }
  const double with_one_more = share_ * double(rungs + 1) / double(rungs);
  if (with_one_more < kGrowShare) {
    if (!under_since_) under_since_ = now;
    if (now - *under_since_ >= kGrowAfter) {
      ++rungs_;
      under_since_.reset();
    }
  } else {
    under_since_.reset();
  }
}

}  // namespace voxl::stream
