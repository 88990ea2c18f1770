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
  Rect translated(int dx, int dy) const { return {x + dx, y + dy, width, height}; }
  // Empty (all zero) when the two do not overlap.
  Rect intersect(const Rect& o) const {
    const int l = std::max(x, o.x), t = std::max(y, o.y);
    const int r = std::min(right(), o.right()), b = std::min(bottom(), o.bottom());
    if (r <= l || b <= t) return {};
    return {l, t, r - l, b - t};
  }
  friend bool operator==(const Rect&, const Rect&) = default;
};

std::string to_string(const Rect& r);  // "WxH+X+Y"

// Parses "x,y,w,h" with w and h positive; nullopt on anything else.
std::optional<Rect> parse_rect(const std::string& text);

}  // namespace voxl
