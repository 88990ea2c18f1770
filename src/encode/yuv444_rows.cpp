#include "encode/yuv444_rows.h"

#include <algorithm>
#include <cmath>

namespace voxl::encode {

namespace {

// BT.601 luma weights (Kr, Kb), the matrix libyuv and the VUI's SMPTE 170M name.
constexpr double kKr = 0.299, kKb = 0.114, kKg = 1.0 - kKr - kKb;
constexpr int kShift = 16;

struct Coefficients {
  int32_t yr, yg, yb, y_offset;
  int32_t ur, ug, ub;
  int32_t vr, vg, vb;
};

constexpr int32_t fixed(double v) { return int32_t(v * (1 << kShift) + (v < 0 ? -0.5 : 0.5)); }

constexpr Coefficients coefficients(ColourRange range) {
  const bool full = range == ColourRange::kFull;
  const double ys = full ? 1.0 : 219.0 / 255.0;
  const double cs = full ? 1.0 : 224.0 / 255.0;
  // Cb = (B - Y) / (2 (1 - Kb)), Cr = (R - Y) / (2 (1 - Kr)), scaled to the range.
  const double cb = cs / (2 * (1 - kKb)), cr = cs / (2 * (1 - kKr));
  return {fixed(kKr * ys),        fixed(kKg * ys),  fixed(kKb * ys),        full ? 0 : 16,
          fixed(-kKr * cb),       fixed(-kKg * cb), fixed((1 - kKb) * cb),
          fixed((1 - kKr) * cr),  fixed(-kKg * cr), fixed(-kKb * cr)};
}

constexpr Coefficients kLimited = coefficients(ColourRange::kLimited);
constexpr Coefficients kFull = coefficients(ColourRange::kFull);

uint8_t clamp8(int32_t v) { return uint8_t(std::clamp(v, 0, 255)); }

void convert_row(const uint8_t* s, uint8_t* y, uint8_t* u, uint8_t* v, int width, const Coefficients& c) {
  constexpr int32_t kHalf = 1 << (kShift - 1);
  const int32_t y_bias = (c.y_offset << kShift) + kHalf;
  constexpr int32_t kChromaBias = (128 << kShift) + kHalf;
  for (int x = 0; x < width; ++x) {
    const int32_t b = s[4 * x], g = s[4 * x + 1], r = s[4 * x + 2];
    y[x] = clamp8((c.yr * r + c.yg * g + c.yb * b + y_bias) >> kShift);
    u[x] = clamp8((c.ur * r + c.ug * g + c.ub * b + kChromaBias) >> kShift);
    v[x] = clamp8((c.vr * r + c.vg * g + c.vb * b + kChromaBias) >> kShift);
  }
}

}  // namespace

void bgrx_to_yuv444(const uint8_t* src, int src_stride, uint8_t* y, int stride_y, uint8_t* u, uint8_t* v,
                    int stride_uv, int width, int height, ColourRange range) {
  const Coefficients& c = range == ColourRange::kFull ? kFull : kLimited;
  for (int row = 0; row < height; ++row)
    convert_row(src + ptrdiff_t(row) * src_stride, y + ptrdiff_t(row) * stride_y, u + ptrdiff_t(row) * stride_uv,
                v + ptrdiff_t(row) * stride_uv, width, c);
}

}  // namespace voxl::encode
