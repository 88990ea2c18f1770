#include "stream/video/motion_judge.h"

#include <algorithm>

namespace voxl::stream {

void MotionJudge::on_change(Clock::time_point at, double share, Clock::duration interval) {
  if (share < kMinShare) return;
  const Clock::duration gap = seen_ ? at - last_moving_ : Clock::duration::max();
  if (gap > kLeave) moving_ = false;
  if (gap > std::max<Clock::duration>(kMaxGap, 3 * interval)) streak_start_ = at;
  seen_ = true;
  last_moving_ = at;
  if (at - streak_start_ >= kEnter) moving_ = true;
}

bool MotionJudge::moving(Clock::time_point now) const { return moving_ && now - last_moving_ <= kLeave; }

double damage_share(std::span<const Rect> rects, Size size) {
  if (size.empty()) return 0;
  double covered = 0;
  for (const Rect& r : rects) covered += double(r.area());
  return std::min(1.0, covered / double(size.area()));
}

}  // namespace voxl::stream
