// Conversion of X image rows to the frame format (32-bit 0x00RRGGBB,
// little-endian). Pure functions; any thread.
#pragma once

#include <cstdint>
#include <string>

namespace voxl::platform::x11 {

struct PixelFormat {
  int bits_per_pixel = 32;
  uint32_t red_mask = 0xff0000;
  uint32_t green_mask = 0x00ff00;
  uint32_t blue_mask = 0x0000ff;

  // The frame's own format: rows can be copied as they are.
  bool is_native() const {
    return bits_per_pixel == 32 && red_mask == 0xff0000 && green_mask == 0xff00 && blue_mask == 0xff;
  }
  // 16, 24 or 32 bits with contiguous masks of at most 8 bits each.
  bool convertible() const;
};

// Bytes in one row of a ZPixmap image `width` wide with `scanline_pad` bits
// of padding (32 on every common server); 0 on bad input.
size_t zpixmap_row_bytes(int width, int bits_per_pixel, int scanline_pad);

// Converts `width` little-endian pixels of `fmt` to 0x00RRGGBB.
void convert_row(const uint8_t* src, const PixelFormat& fmt, int width, uint32_t* dst);

}  // namespace voxl::platform::x11
