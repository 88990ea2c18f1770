#include "stream/video/rung_planner.h"

#include <algorithm>

namespace voxl::stream {

void RungPlanner::groups(std::span<const RungSeat> seats, int rungs, std::vector<int>& out) {
  rungs = std::clamp(rungs, 1, kMaxRungs);
  out.assign(seats.size(), 0);
  order_.clear();
  for (size_t i = 0; i < seats.size(); ++i)
    if (!seats[i].pinned_top && seats[i].link_kbps > 0) order_.push_back(i);
  // Fastest first; equal links keep their order, so a plan is stable (and
  // std::sort, unlike stable_sort, needs no buffer on every ack).
  std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
    return seats[a].link_kbps != seats[b].link_kbps ? seats[a].link_kbps > seats[b].link_kbps : a < b;
  });
  int group = 0;
  double head = 0;  // the kbps of the current group's fastest
  for (size_t n = 0; n < order_.size(); ++n) {
    const RungSeat& s = seats[order_[n]];
    if (n == 0) {
      head = s.link_kbps;
    } else if (group + 1 < rungs) {
      const double share = s.rung <= group ? kStayShare : kJoinShare;
      if (s.link_kbps < share * head) {
        ++group;
        head = s.link_kbps;
      }
    }
    out[order_[n]] = group;
  }
}

bool RungPlanner::plan(std::span<RungSeat> seats, int rungs, Time now) {
  rungs = std::clamp(rungs, 1, kMaxRungs);
  groups(seats, rungs, ideal_);
  bool moved = false;
  for (size_t i = 0; i < seats.size(); ++i) {
    RungSeat& s = seats[i];
    const int want = ideal_[i];
    if (want == s.rung) {
      s.leaning_to = -1;
      continue;
    }
    // Unmeasured and pinned seats have no link to wait for; a rung gone
    // cannot be waited on.
    const bool at_once = s.pinned_top || s.link_kbps <= 0 || s.rung >= rungs;
    if (!at_once) {
      if (s.leaning_to != want) {
        s.leaning_to = want;
        s.leaning_since = now;
      }
      const auto hold = want > s.rung ? kDownHold : kUpHold;
      if (now - s.leaning_since < hold) continue;
    }
    s.rung = want;
    s.leaning_to = -1;
    moved = true;
  }
  return moved;
}

}  // namespace voxl::stream
