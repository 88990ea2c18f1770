#include "base/region.h"

#include <algorithm>
#include <utility>

namespace voxl {

void Region::add(std::span<const Rect> rects) {
  if (rects_.empty() && rects.size() == 1) {  // the common case: one rect into nothing
    if (!rects.front().empty()) rects_.assign(1, rects.front());
    return;
  }
  std::vector<Rect> all(rects_);
  all.insert(all.end(), rects.begin(), rects.end());
  rebuild(std::move(all));
}

void Region::clip(const Rect& clip) {
  std::vector<Rect> kept;
  kept.reserve(rects_.size());
  for (const Rect& r : rects_) kept.push_back(r.intersect(clip));
  rebuild(std::move(kept));
}

Region Region::aligned_out(int grid) const {
  std::vector<Rect> grown;
  grown.reserve(rects_.size());
  for (const Rect& r : rects_) grown.push_back(r.aligned_out(grid));
  Region out;
  out.rebuild(std::move(grown));
  return out;
}

int64_t Region::area() const {
  int64_t a = 0;
  for (const Rect& r : rects_) a += r.area();
  return a;
}

Rect Region::bounds() const {
  Rect box;
  for (const Rect& r : rects_) box = box.bounding(r);
  return box;
}

bool Region::contains(Point p) const {
  return std::any_of(rects_.begin(), rects_.end(), [p](const Rect& r) {
    return p.x >= r.x && p.y >= r.y && p.x < r.right() && p.y < r.bottom();
  });
}

// A sweep from the top: the tops and bottoms of all rectangles cut the
// plane into horizontal slices; in each, the rectangles crossing it give
// spans that are merged, and a slice whose spans match the band above
// extends that band instead of starting one.
void Region::rebuild(std::vector<Rect> in) {
  std::erase_if(in, [](const Rect& r) { return r.empty(); });
  rects_.clear();
  if (in.empty()) return;
  std::vector<int> ys;
  ys.reserve(in.size() * 2);
  for (const Rect& r : in) {
    ys.push_back(r.y);
    ys.push_back(r.bottom());
  }
  std::sort(ys.begin(), ys.end());
  ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
  std::sort(in.begin(), in.end(), [](const Rect& a, const Rect& b) { return a.y < b.y; });

  std::vector<const Rect*> active;
  std::vector<std::pair<int, int>> spans;  // [left, right) of the slice
  size_t next = 0;
  size_t band_begin = 0, band_end = 0;  // the band above in rects_, while it touches the slice
  bool band_above = false;
  for (size_t i = 0; i + 1 < ys.size(); ++i) {
    const int y0 = ys[i], y1 = ys[i + 1];
    while (next < in.size() && in[next].y <= y0) active.push_back(&in[next++]);
    std::erase_if(active, [y0](const Rect* r) { return r->bottom() <= y0; });
    spans.clear();
    for (const Rect* r : active) spans.emplace_back(r->x, r->right());
    std::sort(spans.begin(), spans.end());
    size_t merged = 0;
    for (const auto& s : spans) {
      if (merged > 0 && s.first <= spans[merged - 1].second) {
        spans[merged - 1].second = std::max(spans[merged - 1].second, s.second);
      } else {
        spans[merged++] = s;
      }
    }
    spans.resize(merged);
    if (spans.empty()) {
      band_above = false;
      continue;
    }
    const bool same_as_above =
        band_above && band_end - band_begin == spans.size() &&
        std::equal(spans.begin(), spans.end(), rects_.begin() + ptrdiff_t(band_begin),
                   [](const std::pair<int, int>& s, const Rect& r) { return s.first == r.x && s.second == r.right(); });
    if (same_as_above) {
      for (size_t k = band_begin; k < band_end; ++k) rects_[k].height += y1 - y0;
    } else {
      band_begin = rects_.size();
      for (const auto& [l, r] : spans) rects_.push_back({l, y0, r - l, y1 - y0});
      band_end = rects_.size();
    }
    band_above = true;
  }
}

}  // namespace voxl
