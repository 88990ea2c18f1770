#include "platform/x11/xwd_header.h"

namespace voxl::platform::x11 {

namespace {

uint32_t be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}

constexpr uint32_t kFileVersion = 7;
constexpr uint32_t kZPixmap = 2;
constexpr uint32_t kLsbFirst = 0;
constexpr size_t kColorEntryBytes = 12;
constexpr uint32_t kMaxColors = 65536;
constexpr uint32_t kMaxDimension = 32768;

}  // namespace

std::optional<XwdHeader> parse_xwd_header(std::span<const uint8_t> bytes, size_t total_size,
                                          std::string& why) {
  if (bytes.size() < kXwdFixedHeaderBytes || total_size < kXwdFixedHeaderBytes) {
    why = "shorter than an XWD header";
    return std::nullopt;
  }
  const uint8_t* p = bytes.data();
  auto field = [p](int index) { return be32(p + 4 * index); };
  XwdHeader h;
  h.header_size = field(0);
  h.file_version = field(1);
  h.pixmap_format = field(2);
  h.pixmap_depth = field(3);
  h.pixmap_width = field(4);
  h.pixmap_height = field(5);
  h.byte_order = field(7);
  h.bits_per_pixel = field(11);
  h.bytes_per_line = field(12);
  h.red_mask = field(14);
  h.green_mask = field(15);
  h.blue_mask = field(16);
  h.ncolors = field(19);

  auto fail = [&why](std::string reason) -> std::optional<XwdHeader> {
    why = std::move(reason);
    return std::nullopt;
  };
  if (h.file_version != kFileVersion)
    return fail("XWD version " + std::to_string(h.file_version) + ", expected 7");
  if (h.header_size < kXwdFixedHeaderBytes || h.header_size > total_size)
    return fail("header size " + std::to_string(h.header_size) + " out of range");
  if (h.pixmap_format != kZPixmap) return fail("not a ZPixmap framebuffer");
  if (h.byte_order != kLsbFirst) return fail("pixels are not little-endian");
  if (h.bits_per_pixel != 32)
    return fail(std::to_string(h.bits_per_pixel) + " bits per pixel, expected 32");
  if (h.red_mask != 0xff0000 || h.green_mask != 0xff00 || h.blue_mask != 0xff)
    return fail("colour masks are not 8-bit RGB");
  if (h.pixmap_width == 0 || h.pixmap_height == 0 || h.pixmap_width > kMaxDimension ||
      h.pixmap_height > kMaxDimension)
    return fail("size " + std::to_string(h.pixmap_width) + "x" + std::to_string(h.pixmap_height) +
                " out of range");
  if (h.bytes_per_line < h.pixmap_width * 4 || h.bytes_per_line % 4 != 0)
    return fail("stride " + std::to_string(h.bytes_per_line) + " does not hold " +
                std::to_string(h.pixmap_width) + " pixels");
  if (h.ncolors > kMaxColors) return fail("colour map too large");
  h.pixel_offset = size_t(h.header_size) + size_t(h.ncolors) * kColorEntryBytes;
  const size_t pixel_bytes = size_t(h.bytes_per_line) * size_t(h.pixmap_height);
  if (h.pixel_offset > total_size || pixel_bytes > total_size - h.pixel_offset)
    return fail("pixels extend past the end of the segment");
  return h;
}

std::string check_against_server(const XwdHeader& h, Size root, int root_depth) {
  if (int(h.pixmap_depth) != root_depth)
    return "framebuffer depth " + std::to_string(h.pixmap_depth) + " but the server's is " +
           std::to_string(root_depth);
  if (root.width <= 0 || root.height <= 0 || uint32_t(root.width) > h.pixmap_width ||
      uint32_t(root.height) > h.pixmap_height)
    return "screen " + std::to_string(root.width) + "x" + std::to_string(root.height) +
           " does not fit the framebuffer " + std::to_string(h.pixmap_width) + "x" +
           std::to_string(h.pixmap_height);
  return {};
}

}  // namespace voxl::platform::x11
