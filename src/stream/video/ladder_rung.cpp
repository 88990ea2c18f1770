#include "stream/video/ladder_rung.h"

#include <algorithm>

namespace voxl::stream {

void LadderRung::owe(std::span<const Rect> rects) {
  for (const Rect& r : rects)
    if (!r.empty()) pending_.push_back(r);
  if (pending_.size() <= kMaxPending) return;
  Rect box;
  for (const Rect& r : pending_) box = box.bounding(r);
  pending_.assign(1, box);
}

void LadderRung::take(std::span<const Rect> rects, std::vector<Rect>& out) {
  out.assign(rects.begin(), rects.end());
  out.insert(out.end(), pending_.begin(), pending_.end());
  pending_.clear();
}

LadderRung::Clock::time_point LadderRung::next_slot(int fps) const {
  if (!last_coded || fps <= 0) return Clock::time_point::min();
  return *last_coded + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(0.75 / fps));
}

void LadderRung::drop() {
  encoder.reset();
  pending_.clear();
  codecs.clear();
  last_coded.reset();
}

}  // namespace voxl::stream
