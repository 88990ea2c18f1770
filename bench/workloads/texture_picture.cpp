#include "texture_picture.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace voxl::bench {

namespace {

constexpr int kGrainMargin = 64;  // the grain window moves within this many pixels
constexpr int kGrainAmplitude = 14;

uint32_t mix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x7feb352dU;
  h ^= h >> 15;
  h *= 0x846ca68bU;
  h ^= h >> 16;
  return h;
}

uint32_t hash(int x, int y, uint32_t seed) { return mix(uint32_t(x) * 0x9e3779b1U ^ mix(uint32_t(y) + seed)); }

// Uniform in [0, 1).
double unit(int x, int y, uint32_t seed) { return double(hash(x, y, seed) >> 8) / double(1 << 24); }

// Smooth value noise in [0, 1) with lattice spacing `scale` pixels.
double value_noise(int x, int y, int scale, uint32_t seed) {
  const int gx = x / scale, gy = y / scale;
  const double fx = double(x % scale) / scale, fy = double(y % scale) / scale;
  const double sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
  const double a = unit(gx, gy, seed), b = unit(gx + 1, gy, seed);
  const double c = unit(gx, gy + 1, seed), d = unit(gx + 1, gy + 1, seed);
  return (a + (b - a) * sx) * (1 - sy) + (c + (d - c) * sx) * sy;
}

uint32_t pixel(int x, int y, uint32_t seed) {
  const double X = x, Y = y;
  double c[3];
  for (int ch = 0; ch < 3; ++ch) {
    const uint32_t s = seed + uint32_t(ch) * 1013;
    // Smooth gradients: a sky-like wash of slow waves.
    double v = 118 + 55 * std::sin(X * 0.0031 + Y * 0.0023 + ch * 2.1) + 28 * std::sin(Y * 0.0087 - X * 0.0011 + ch);
    // Blotches at two scales (foliage, clouds).
    v += 70 * (value_noise(x, y, 97, s) - 0.5) + 36 * (value_noise(x, y, 23, s + 7) - 0.5);
    // Fine coloured detail: per-pixel speckle and a woven pattern.
    v += 22 * (unit(x, y, s + 31) - 0.5);
    v += 12 * std::sin(X * 1.3 + ch) * std::sin(Y * 0.9);
    c[ch] = v;
  }
  // Thin dark twigs: lines where a slow noise crosses a level.
  const double n = value_noise(x, y, 41, seed + 99);
  if (std::abs(n - 0.5) < 0.012)
    for (double& v : c) v *= 0.35;
  const auto byte = [](double v) { return uint32_t(std::clamp(int(std::lround(v)), 0, 255)); };
  return byte(c[0]) << 16 | byte(c[1]) << 8 | byte(c[2]);
}

}  // namespace

TexturePicture::TexturePicture(int width, int height, uint64_t seed)
    : width_(width), height_(height), period_(std::max(2 * height, 1024)),
      grain_w_(width + kGrainMargin), grain_h_(height + kGrainMargin) {
  const uint32_t s = uint32_t(seed ^ (seed >> 32));
  texture_.resize(size_t(width_) * size_t(period_));
  for (int y = 0; y < period_; ++y)
    for (int x = 0; x < width_; ++x) texture_[size_t(y) * size_t(width_) + size_t(x)] = pixel(x, y, s);
  brighten_.resize(size_t(grain_w_) * size_t(grain_h_));
  darken_.resize(brighten_.size());
  for (int y = 0; y < grain_h_; ++y)
    for (int x = 0; x < grain_w_; ++x) {
      // Roughly Gaussian: the sum of two uniforms.
      const double g = (unit(x, y, s + 501) + unit(x, y, s + 502)) - 1.0;
      const int d = int(std::lround(g * kGrainAmplitude));
      const uint32_t bytes = uint32_t(std::abs(d)) * 0x010101U;
      (d >= 0 ? brighten_ : darken_)[size_t(y) * size_t(grain_w_) + size_t(x)] = bytes;
    }
}

void TexturePicture::render(uint32_t counter, uint32_t* out, int stride, int y0, int y1) const {
  const int offset = int((uint64_t(counter) * kScrollPerFrame) % uint64_t(period_));
  const uint32_t h = mix(counter * 0x9e3779b1U + 17);
  const int gx = int(h % kGrainMargin), gy = int((h >> 8) % kGrainMargin);
  for (int y = std::max(0, y0); y < std::min(height_, y1); ++y) {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(texture_.data() + size_t((y + offset) % period_) * size_t(width_));
    const size_t g = size_t(y + gy) * size_t(grain_w_) + size_t(gx);
    const uint8_t* up = reinterpret_cast<const uint8_t*>(brighten_.data() + g);
    const uint8_t* down = reinterpret_cast<const uint8_t*>(darken_.data() + g);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out + size_t(y) * size_t(stride));
    // Saturating byte arithmetic; the grain's bytes are 0 in each pixel's
    // unused top byte, which stays 0.
    int i = 0;
#if defined(__SSE2__)
    for (; i + 16 <= 4 * width_; i += 16) {
      const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      const __m128i u = _mm_loadu_si128(reinterpret_cast<const __m128i*>(up + i));
      const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(down + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm_subs_epu8(_mm_adds_epu8(t, u), d));
    }
#endif
    for (; i < 4 * width_; ++i) dst[i] = uint8_t(std::clamp(src[i] + up[i] - down[i], 0, 255));
  }
}

}  // namespace voxl::bench
