#include "platform/x11/pixel_format.h"

#include <bit>
#include <cstring>

namespace voxl::platform::x11 {

namespace {

bool contiguous(uint32_t mask) {
  if (mask == 0) return false;
  const uint32_t shifted = mask >> std::countr_zero(mask);
  return (shifted & (shifted + 1)) == 0 && std::popcount(mask) <= 8;
}

// Scales the channel selected by `mask` to 8 bits.
inline uint32_t channel(uint32_t px, uint32_t mask) {
  const int shift = std::countr_zero(mask);
  const int bits = std::popcount(mask);
  uint32_t v = (px & mask) >> shift;
  // Replicate the high bits into the low ones so full scale maps to 255.
  v <<= 8 - bits;
  for (int have = bits; have < 8; have += bits) v |= v >> bits;
  return v & 0xff;
}

}  // namespace

bool PixelFormat::convertible() const {
  if (bits_per_pixel != 16 && bits_per_pixel != 24 && bits_per_pixel != 32) return false;
  return contiguous(red_mask) && contiguous(green_mask) && contiguous(blue_mask);
}

size_t zpixmap_row_bytes(int width, int bits_per_pixel, int scanline_pad) {
  if (width <= 0 || bits_per_pixel <= 0 || scanline_pad <= 0 || scanline_pad % 8) return 0;
  const size_t bits = size_t(width) * size_t(bits_per_pixel);
  const size_t pad = size_t(scanline_pad);
  return (bits + pad - 1) / pad * pad / 8;
}

void convert_row(const uint8_t* src, const PixelFormat& fmt, int width, uint32_t* dst) {
  if (fmt.is_native()) {
    std::memcpy(dst, src, size_t(width) * 4);
    return;
  }
  const int bytes = fmt.bits_per_pixel / 8;
  for (int x = 0; x < width; ++x) {
    uint32_t px = 0;
    for (int b = 0; b < bytes; ++b) px |= uint32_t(src[x * bytes + b]) << (8 * b);
    dst[x] = channel(px, fmt.red_mask) << 16 | channel(px, fmt.green_mask) << 8 |
             channel(px, fmt.blue_mask);
  }
}

}  // namespace voxl::platform::x11
