#include "endpoints/change_log.h"

#include "base/region.h"

namespace voxl::endpoints {

Rect block_aligned(const Rect& r) { return r.aligned_out(kBlockSize); }

bool touches(const std::vector<Rect>& rects, const std::optional<Rect>& region) {
  if (!region) return !rects.empty();
  for (const Rect& r : rects)
    if (!r.intersect(*region).empty()) return true;
  return false;
}

uint64_t ChangeLog::add(std::vector<Rect> rects) {
  if (rects.size() > kKeptRects) {
    Rect box;
    for (const Rect& r : rects) box = box.bounding(r);
    rects.assign(1, box);
  }
  batches_.push_back({++seq_, std::move(rects)});
  if (batches_.size() > kKeptBatches) batches_.pop_front();
  return seq_;
}

bool ChangeLog::changed_since(uint64_t since, const std::optional<Rect>& region) const {
  if (since >= seq_) return false;
  if (batches_.empty() || batches_.front().seq > since + 1) return true;  // forgotten: assume so
  const std::optional<Rect> watched = region ? std::optional<Rect>(block_aligned(*region)) : std::nullopt;
  for (auto it = batches_.rbegin(); it != batches_.rend() && it->seq > since; ++it)
    if (touches(it->rects, watched)) return true;
  return false;
}

}  // namespace voxl::endpoints
