#include "endpoints/change_log.h"

namespace voxl::endpoints {

namespace {

constexpr int kBlock = 16;

int floor_block(int v) { return v >= 0 ? v / kBlock * kBlock : -((-v + kBlock - 1) / kBlock * kBlock); }

}  // namespace

Rect block_aligned(const Rect& r) {
  const int l = floor_block(r.x), t = floor_block(r.y);
  const int rr = -floor_block(-r.right()), b = -floor_block(-r.bottom());
  return {l, t, rr - l, b - t};
}

bool touches(const std::vector<Rect>& rects, const std::optional<Rect>& region) {
  if (!region) return !rects.empty();
  for (const Rect& r : rects)
    if (!r.intersect(*region).empty()) return true;
  return false;
}

uint64_t ChangeLog::add(std::vector<Rect> rects) {
  if (rects.size() > kKeptRects) {
    Rect box = rects.front();
    for (const Rect& r : rects) {
      const int l = std::min(box.x, r.x), t = std::min(box.y, r.y);
      const int rr = std::max(box.right(), r.right()), b = std::max(box.bottom(), r.bottom());
      box = {l, t, rr - l, b - t};
    }
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
