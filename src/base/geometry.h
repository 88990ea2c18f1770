// Integer geometry shared by capture, encode and the endpoints.
// Plain values: any thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace voxl {

struct Point {
  int x = 0;
  int y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

struct Size {
  int width = 0;
  int height = 0;

  bool empty() const { return width <= 0 || height <= 0; }
  int64_t area() const { return empty() ? 0 : int64_t{width} * height; }
  friend bool operator==(const Size&, const Size&) = default;
};

struct Rect {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;

  static Rect from_size(Size s) { return {0, 0, s.width, s.height}; }
  int right() const { return x + width; }
  int bottom() const { return y + height; }
  Size size() const { return {width, height}; }
  bool empty() const { return width <= 0 || height <= 0; }
  int64_t area() const { return empty() ? 0 : int64_t{width} * height; }
  bool contains(const Rect& o) const {
    return o.x >= x && o.y >= y && o.right() <= right() && o.bottom() <= bottom();
  }
  [[nodiscard]] Rect translated(int dx, int dy) const { return {x + dx, y + dy, width, height}; }
  // Empty (all zero) when the two do not overlap.
  [[nodiscard]] Rect intersect(const Rect& o) const {
    const int l = std::max(x, o.x), t = std::max(y, o.y);
    const int r = std::min(right(), o.right()), b = std::min(bottom(), o.bottom());
    if (r <= l || b <= t) return {};
    return {l, t, r - l, b - t};
  }
  // The smallest rectangle holding both (the bounding box of their union,
  // not the union itself: see Region); an empty operand adds nothing.
  [[nodiscard]] Rect bounding(const Rect& o) const {
    if (o.empty()) return empty() ? Rect{} : *this;
    if (empty()) return o;
    const int l = std::min(x, o.x), t = std::min(y, o.y);
    return {l, t, std::max(right(), o.right()) - l, std::max(bottom(), o.bottom()) - t};
  }
  // Grown outward to multiples of `grid` (> 0) on every side, negative
  // coordinates included; empty when this is.
  [[nodiscard]] Rect aligned_out(int grid) const {
    if (empty()) return {};
    const auto floor_to = [grid](int v) { return v >= 0 ? v / grid * grid : -((-v + grid - 1) / grid * grid); };
    const int l = floor_to(x), t = floor_to(y);
    const int r = -floor_to(-right()), b = -floor_to(-bottom());
    return {l, t, r - l, b - t};
  }
  friend bool operator==(const Rect&, const Rect&) = default;
};

std::string to_string(const Rect& r);  // "WxH+X+Y"
std::string size_text(Size s);          // "1920x1080", for messages

// Parses "x,y,w,h" with w and h positive; nullopt on anything else.
[[nodiscard]] std::optional<Rect> parse_rect(const std::string& text);

}  // namespace voxl
