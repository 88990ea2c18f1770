#include "capture/pending_damage.h"

namespace voxl::capture {

void PendingDamage::reset(Size size) {
  size_ = size;
  blocks_ = BlockMap(size);
  rects_.clear();
  add_all();
}

void PendingDamage::add(const Rect& r) {
  const Rect c = r.intersect(Rect::from_size(size_));
  if (c.empty()) return;
  blocks_.add(c);
  if (rects_.size() <= kMaxRects) rects_.push_back(c);
}

void PendingDamage::add_seen_through(const Rect& r, const Rect& area) {
  const Rect c = r.intersect(area);
  if (!c.empty()) add(Rect{c.x - area.x, c.y - area.y, c.width, c.height});
}

void PendingDamage::hand_to(Frame& frame) {
  frame.damage_blocks = blocks_;
  if (rects_.size() <= kMaxRects) frame.damage_rects = rects_;
  else frame.damage_rects = blocks_.to_rects();
  blocks_.clear();
  rects_.clear();
}

}  // namespace voxl::capture
