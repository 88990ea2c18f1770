// What changed since a capturer's last frame, as the frame will say it: the
// blocks (always), and the rectangles as the platform reported them while
// there are few enough (past kMaxRects the frame gets the blocks' own
// rectangles). Shared by the capturers whose platform reports rectangles
// (wlr-screencopy, the portal's PipeWire stream).
//
// Threads: the capturer's. Pure.
#pragma once

#include <cstddef>
#include <vector>

#include "base/block_map.h"
#include "base/geometry.h"
#include "capture/frame.h"

namespace voxl::capture {

class PendingDamage {
 public:
  static constexpr size_t kMaxRects = 64;

  // A picture of `size`, wholly pending (a new capturer, a new size).
  void reset(Size size);
  // `r` changed; clipped to the picture.
  void add(const Rect& r);
  // A box reported in the coordinates of a larger picture of which the
  // frames show only `area` (a --capture-region): its part inside, moved to
  // the area's corner.
  void add_seen_through(const Rect& r, const Rect& area);
  void add_all() { add(Rect::from_size(size_)); }
  bool empty() const { return blocks_.empty(); }
  const BlockMap& blocks() const { return blocks_; }
  Size size() const { return size_; }
  // Gives `frame` its damage and starts over with nothing pending.
  void hand_to(Frame& frame);

 private:
  Size size_;
  BlockMap blocks_;
  std::vector<Rect> rects_;
};

}  // namespace voxl::capture
