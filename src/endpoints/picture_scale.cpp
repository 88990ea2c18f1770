#include "endpoints/picture_scale.h"

#include <libyuv/scale_argb.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace voxl::endpoints {

namespace {

// floor(a / b) for b > 0, any sign of a.
int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

// One side: `v` of `from` pixels to the pixel of `to` under its centre.
int map_centre(int v, int from, int to) {
  if (from <= 0 || to <= 0) return v;
  const int64_t r = floor_div((2 * int64_t(v) + 1) * to, 2 * int64_t(from));
  return int(std::clamp<int64_t>(r, 0, to - 1));
}

}  // namespace

bool make_scale(std::optional<double> scale, std::optional<int64_t> max_width, std::optional<int64_t> max_height,
                ScaleSpec& out, net::ParamError& error) {
  if (scale && (max_width || max_height)) {
    error = {"scale", "cannot be combined with max_width or max_height"};
    return false;
  }
  if (scale) {
    if (!std::isfinite(*scale) || *scale < kMinScale || *scale > 1) {
      error = {"scale", "must be a number from 0.05 to 1"};
      return false;
    }
    out.scale = *scale;
  }
  const auto side = [&](const char* name, const std::optional<int64_t>& v, int& to) {
    if (!v) return true;
    if (*v < kMinScaledSide || *v > kMaxScaledSide) {
      error = {name, "must be from " + std::to_string(kMinScaledSide) + " to " + std::to_string(kMaxScaledSide) +
                         " pixels"};
      return false;
    }
    to = int(*v);
    return true;
  };
  return side("max_width", max_width, out.max_width) && side("max_height", max_height, out.max_height);
}

bool parse_scale(const net::Query& q, ScaleSpec& out, net::ParamError& error) {
  std::optional<double> scale;
  std::optional<int64_t> w, h;
  if (const std::string* t = q.text("scale")) {
    double v = 0;
    const char* end = t->data() + t->size();
    const auto r = std::from_chars(t->data(), end, v);
    if (t->empty() || r.ec != std::errc() || r.ptr != end) {
      error = {"scale", "must be a number from 0.05 to 1"};
      return false;
    }
    scale = v;
  }
  int64_t v = 0;
  if (q.has("max_width")) {
    if (!q.integer("max_width", kMinScaledSide, kMaxScaledSide, v, error)) return false;
    w = v;
  }
  if (q.has("max_height")) {
    if (!q.integer("max_height", kMinScaledSide, kMaxScaledSide, v, error)) return false;
    h = v;
  }
  return make_scale(scale, w, h, out, error);
}

Scaling::Scaling(Size full, Size scaled) : full_(full), scaled_(scaled) {}

Scaling Scaling::fit(Size full, const ScaleSpec& spec) {
  if (full.empty() || !spec.given()) return {full, full};
  double f = 1;
  if (spec.scale > 0) f = spec.scale;
  if (spec.max_width > 0) f = std::min(f, double(spec.max_width) / full.width);
  if (spec.max_height > 0) f = std::min(f, double(spec.max_height) / full.height);
  if (f >= 1) return {full, full};
  Size s{std::max(1, int(std::lround(full.width * f))), std::max(1, int(std::lround(full.height * f)))};
  if (spec.max_width > 0) s.width = std::min(s.width, spec.max_width);
  if (spec.max_height > 0) s.height = std::min(s.height, spec.max_height);
  s.width = std::min(s.width, full.width);
  s.height = std::min(s.height, full.height);
  return {full, s};
}

Point Scaling::to_full(int x, int y) const {
  if (identity()) return {x, y};
  return {map_centre(x, scaled_.width, full_.width), map_centre(y, scaled_.height, full_.height)};
}

Point Scaling::to_scaled(int x, int y) const {
  if (identity()) return {x, y};
  return {map_centre(x, full_.width, scaled_.width), map_centre(y, full_.height, scaled_.height)};
}

namespace {

// Every pixel of `to` that shows part of `r`, a rectangle of `from`.
Rect cover(const Rect& r, Size from, Size to) {
  const auto lo = [](int v, int f, int t) { return int(std::clamp<int64_t>(floor_div(int64_t(v) * t, f), 0, t)); };
  const auto hi = [](int v, int f, int t) { return int(std::clamp<int64_t>(ceil_div(int64_t(v) * t, f), 0, t)); };
  const int x0 = lo(r.x, from.width, to.width), y0 = lo(r.y, from.height, to.height);
  const int x1 = hi(r.x + r.width, from.width, to.width), y1 = hi(r.y + r.height, from.height, to.height);
  return {x0, y0, x1 - x0, y1 - y0};
}

}  // namespace

Rect Scaling::to_full(const Rect& r) const { return identity() ? r : cover(r, scaled_, full_); }

Rect Scaling::to_scaled(const Rect& r) const { return identity() ? r : cover(r, full_, scaled_); }

nlohmann::json coordinate_space_json(const Scaling& scaling, Point picture_origin) {
  const Size seen = scaling.scaled(), full = scaling.full();
  return {{"width", seen.width},
          {"height", seen.height},
          {"picture_width", full.width},
          {"picture_height", full.height},
          {"scale", scaling.factor()},
          {"picture_origin", {{"x", picture_origin.x}, {"y", picture_origin.y}}}};
}

bool scale_bgra(const uint8_t* src, int src_stride, Size src_size, uint8_t* dst, int dst_stride, Size dst_size) {
  if (src_size.empty() || dst_size.empty() || dst_size.width > src_size.width || dst_size.height > src_size.height)
    return false;
  // libyuv's "ARGB" is B, G, R, A in memory: the frame's layout.
  return libyuv::ARGBScale(src, src_stride, src_size.width, src_size.height, dst, dst_stride, dst_size.width,
                           dst_size.height, libyuv::kFilterBox) == 0;
}

void draw_cursor(uint8_t* bgra, int stride, Size size, const input::CursorImage& cursor, Point hot) {
  if (cursor.width <= 0 || cursor.height <= 0 ||
      cursor.rgba.size() < size_t(cursor.width) * size_t(cursor.height) * 4)
    return;
  const int64_t left = int64_t(hot.x) - cursor.hot_x, top = int64_t(hot.y) - cursor.hot_y;
  for (int cy = 0; cy < cursor.height; ++cy) {
    const int64_t y = top + cy;
    if (y < 0 || y >= size.height) continue;
    for (int cx = 0; cx < cursor.width; ++cx) {
      const int64_t x = left + cx;
      if (x < 0 || x >= size.width) continue;
      const uint8_t* c = &cursor.rgba[(size_t(cy) * size_t(cursor.width) + size_t(cx)) * 4];
      const unsigned a = c[3];
      if (a == 0) continue;
      uint8_t* d = bgra + ptrdiff_t(y) * stride + ptrdiff_t(x) * 4;
      // Straight alpha over the picture; the picture's B, G, R against the
      // pointer's R, G, B.
      for (int i = 0; i < 3; ++i) d[i] = uint8_t((c[2 - i] * a + d[i] * (255 - a) + 127) / 255);
    }
  }
}

}  // namespace voxl::endpoints
