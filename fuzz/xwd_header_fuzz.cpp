// The XWD header at the start of Xvfb's framebuffer segment (another local
// process writes it). The input is the segment; an accepted header must
// describe pixels that lie inside it, and every pixel row is read to prove
// it. The last four bytes give the root size to check against the server.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "platform/x11/xwd_header.h"
#include "fuzz_check.h"

using namespace voxl::platform::x11;

VOXL_FUZZ_TARGET(xwd_header) {
  const std::span<const uint8_t> segment(data, size);
  std::string why;
  const auto h = parse_xwd_header(segment, size, why);
  if (!h) {
    FUZZ_CHECK(!why.empty());
    return 0;
  }
  FUZZ_CHECK(size >= kXwdFixedHeaderBytes);
  FUZZ_CHECK(h->file_version == 7 && h->bits_per_pixel == 32 && h->pixmap_width > 0 && h->pixmap_height > 0);
  FUZZ_CHECK(h->bytes_per_line >= h->pixmap_width * 4);
  FUZZ_CHECK(h->pixel_offset >= h->header_size && h->pixel_offset <= size);
  const size_t rows_end = h->pixel_offset + size_t(h->bytes_per_line) * h->pixmap_height;
  FUZZ_CHECK(rows_end <= size);
  // Touch the first and last pixel of every row, as a capture would.
  unsigned sum = 0;
  for (uint32_t y = 0; y < h->pixmap_height; ++y) {
    const uint8_t* row = data + h->pixel_offset + size_t(y) * h->bytes_per_line;
    sum += row[0] + row[size_t(h->pixmap_width) * 4 - 1];
  }
  (void)sum;
  const voxl::Size root{int(data[size - 4] << 8 | data[size - 3]) - 100, int(data[size - 2] << 8 | data[size - 1]) - 100};
  const std::string mismatch = check_against_server(*h, root, 24);
  if (mismatch.empty())
    FUZZ_CHECK(h->pixmap_depth == 24 && root.width > 0 && root.height > 0 &&
               uint32_t(root.width) <= h->pixmap_width && uint32_t(root.height) <= h->pixmap_height);
  return 0;
}
