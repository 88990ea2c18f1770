// The XWD header at the start of an Xvfb `-shmem` framebuffer segment (and of
// an `-fbdir` file): big-endian 32-bit fields, then the window name, then
// `ncolors` 12-byte colour entries, then the pixels. Pure parsing; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "base/geometry.h"

namespace voxl::platform::x11 {

struct XwdHeader {
  uint32_t header_size = 0;
  uint32_t file_version = 0;
  uint32_t pixmap_format = 0;
  uint32_t pixmap_depth = 0;
  uint32_t pixmap_width = 0;
  uint32_t pixmap_height = 0;
  uint32_t byte_order = 0;
  uint32_t bits_per_pixel = 0;
  uint32_t bytes_per_line = 0;
  uint32_t red_mask = 0;
  uint32_t green_mask = 0;
  uint32_t blue_mask = 0;
  uint32_t ncolors = 0;
  size_t pixel_offset = 0;  // header_size + ncolors * 12
};

inline constexpr size_t kXwdFixedHeaderBytes = 100;  // 25 CARD32 fields

// Parses and sanity-checks a header read from `bytes` (at least the first
// kXwdFixedHeaderBytes of a segment `total_size` bytes long). Accepts only
// what voxl can read directly: version 7, ZPixmap, LSBFirst, 32 bits per
// pixel with 8-bit RGB masks, and pixels that fit inside the segment.
// On failure returns nullopt and says why in `why`.
std::optional<XwdHeader> parse_xwd_header(std::span<const uint8_t> bytes, size_t total_size,
                                          std::string& why);

// Checks a parsed header against what the X server reports: same depth, the
// visible root (which RandR may have shrunk) fits inside the framebuffer.
// Empty string when it matches, else why not.
std::string check_against_server(const XwdHeader& h, Size root, int root_depth);

}  // namespace voxl::platform::x11
