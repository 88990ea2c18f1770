#include "base/geometry.h"

#include <charconv>
#include <vector>

namespace voxl {

std::string to_string(const Rect& r) {
  return std::to_string(r.width) + "x" + std::to_string(r.height) + "+" + std::to_string(r.x) +
         "+" + std::to_string(r.y);
}

std::string size_text(Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

std::optional<Rect> parse_rect(const std::string& text) {
  int v[4];
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 4; ++i) {
    auto [next, ec] = std::from_chars(p, end, v[i]);
    if (ec != std::errc{} || next == p) return std::nullopt;
    p = next;
    if (i < 3) {
      if (p == end || *p != ',') return std::nullopt;
      ++p;
    }
  }
  if (p != end || v[2] <= 0 || v[3] <= 0) return std::nullopt;
  return Rect{v[0], v[1], v[2], v[3]};
}

}  // namespace voxl
