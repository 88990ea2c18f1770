#include "platform/x11/shm_request_plan.h"

#include <algorithm>
#include <cstdint>

namespace voxl::platform::x11 {

namespace {

struct Rows {
  int top, bottom;  // [top, bottom)
};

bool wide(const Rect& r, Size frame) {
  return int64_t(r.width) * kBandMinWidthDen >= int64_t(frame.width) * kBandMinWidthNum;
}

}  // namespace

std::vector<ShmRequest> plan_shm_requests(std::span<const Rect> rects, Size frame) {
  const Rect whole = Rect::from_size(frame);
  std::vector<Rows> bands;
  for (const Rect& raw : rects) {
    const Rect r = raw.intersect(whole);
    if (!r.empty() && wide(r, frame)) bands.push_back({r.y, r.bottom()});
  }
  std::sort(bands.begin(), bands.end(), [](const Rows& a, const Rows& b) { return a.top < b.top; });
  std::vector<Rows> merged;
  for (const Rows& b : bands) {
    if (!merged.empty() && b.top <= merged.back().bottom)
      merged.back().bottom = std::max(merged.back().bottom, b.bottom);
    else
      merged.push_back(b);
  }

  std::vector<ShmRequest> out;
  for (const Rows& b : merged) out.push_back({{0, b.top, frame.width, b.bottom - b.top}, true});
  for (const Rect& raw : rects) {
    const Rect r = raw.intersect(whole);
    if (r.empty() || wide(r, frame)) continue;
    // The rows of `r` no band covers, top to bottom (bands are sorted and
    // disjoint).
    int y = r.y;
    for (const Rows& b : merged) {
      if (b.bottom <= y) continue;
      if (b.top >= r.bottom()) break;
      if (b.top > y) out.push_back({{r.x, y, r.width, b.top - y}, false});
      y = std::max(y, b.bottom);
    }
    if (y < r.bottom()) out.push_back({{r.x, y, r.width, r.bottom() - y}, false});
  }
  return out;
}

}  // namespace voxl::platform::x11
