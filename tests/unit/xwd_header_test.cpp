#include "platform/x11/xwd_header.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

// Field numbers of the 25 big-endian CARD32s at the start of an XWD file.
enum Field : int {
  kHeaderSize = 0,
  kFileVersion = 1,
  kPixmapFormat = 2,
  kPixmapDepth = 3,
  kPixmapWidth = 4,
  kPixmapHeight = 5,
  kXOffset = 6,
  kByteOrder = 7,
  kBitmapUnit = 8,
  kBitmapBitOrder = 9,
  kBitmapPad = 10,
  kBitsPerPixel = 11,
  kBytesPerLine = 12,
  kVisualClass = 13,
  kRedMask = 14,
  kGreenMask = 15,
  kBlueMask = 16,
  kBitsPerRgb = 17,
  kColormapEntries = 18,
  kNColors = 19,
  kWindowWidth = 20,
  kWindowHeight = 21,
};

constexpr size_t kColourEntry = 12;

// Builds the header bytes the way an X server writes them.
struct XwdBuilder {
  std::array<uint32_t, 25> fields{};
  std::string name;

  // What Xvfb -screen 0 1920x1080x24 -shmem puts at the start of its segment.
  static XwdBuilder xvfb(uint32_t width = 1920, uint32_t height = 1080) {
    XwdBuilder b;
    b.name = "Xvfb main window";
    b.fields[kHeaderSize] = uint32_t(kXwdFixedHeaderBytes + b.name.size() + 1);
    b.fields[kFileVersion] = 7;
    b.fields[kPixmapFormat] = 2;  // ZPixmap
    b.fields[kPixmapDepth] = 24;
    b.fields[kPixmapWidth] = width;
    b.fields[kPixmapHeight] = height;
    b.fields[kXOffset] = 0;
    b.fields[kByteOrder] = 0;  // LSBFirst
    b.fields[kBitmapUnit] = 32;
    b.fields[kBitmapBitOrder] = 0;
    b.fields[kBitmapPad] = 32;
    b.fields[kBitsPerPixel] = 32;
    b.fields[kBytesPerLine] = width * 4;
    b.fields[kVisualClass] = 4;  // TrueColor
    b.fields[kRedMask] = 0xff0000;
    b.fields[kGreenMask] = 0x00ff00;
    b.fields[kBlueMask] = 0x0000ff;
    b.fields[kBitsPerRgb] = 8;
    b.fields[kColormapEntries] = 256;
    b.fields[kNColors] = 256;
    b.fields[kWindowWidth] = width;
    b.fields[kWindowHeight] = height;
    return b;
  }

  // The fixed header, the name and the colour map (the pixels are not needed).
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> out;
    for (uint32_t v : fields) {
      out.push_back(uint8_t(v >> 24));
      out.push_back(uint8_t(v >> 16));
      out.push_back(uint8_t(v >> 8));
      out.push_back(uint8_t(v));
    }
    out.insert(out.end(), name.begin(), name.end());
    out.push_back(0);
    out.resize(out.size() + size_t(fields[kNColors]) * kColourEntry, 0);
    return out;
  }

  size_t pixel_offset() const {
    return size_t(fields[kHeaderSize]) + size_t(fields[kNColors]) * kColourEntry;
  }
  // The size of a segment holding exactly header, colours and pixels.
  size_t exact_total() const {
    return pixel_offset() + size_t(fields[kBytesPerLine]) * size_t(fields[kPixmapHeight]);
  }
};

std::optional<XwdHeader> parse(const XwdBuilder& b, size_t total, std::string& why) {
  const std::vector<uint8_t> bytes = b.bytes();
  return parse_xwd_header(bytes, total, why);
}

// Expects `b` to be rejected in a segment of exactly the right size.
void expect_rejected(const XwdBuilder& b, const char* what) {
  SCOPED_TRACE(what);
  std::string why;
  const auto h = parse(b, b.exact_total(), why);
  EXPECT_FALSE(h.has_value());
  EXPECT_FALSE(why.empty());
}

TEST(XwdHeader, BuilderWritesBigEndianFields) {
  const auto bytes = XwdBuilder::xvfb().bytes();
  // header_size 117 = 0x75, file_version 7, width 1920 = 0x780.
  EXPECT_EQ(bytes[0], 0);
  EXPECT_EQ(bytes[3], 0x75);
  EXPECT_EQ(bytes[7], 7);
  EXPECT_EQ(bytes[4 * kPixmapWidth + 2], 0x07);
  EXPECT_EQ(bytes[4 * kPixmapWidth + 3], 0x80);
  EXPECT_EQ(bytes[4 * kRedMask + 1], 0xff);
}

TEST(XwdHeader, ParsesAnXvfbFramebufferHeader) {
  const XwdBuilder b = XwdBuilder::xvfb();
  std::string why;
  const auto h = parse(b, b.exact_total(), why);
  ASSERT_TRUE(h.has_value()) << why;
  EXPECT_EQ(h->header_size, 117u);
  EXPECT_EQ(h->file_version, 7u);
  EXPECT_EQ(h->pixmap_format, 2u);
  EXPECT_EQ(h->pixmap_depth, 24u);
  EXPECT_EQ(h->pixmap_width, 1920u);
  EXPECT_EQ(h->pixmap_height, 1080u);
  EXPECT_EQ(h->byte_order, 0u);
  EXPECT_EQ(h->bits_per_pixel, 32u);
  EXPECT_EQ(h->bytes_per_line, 7680u);
  EXPECT_EQ(h->red_mask, 0xff0000u);
  EXPECT_EQ(h->green_mask, 0x00ff00u);
  EXPECT_EQ(h->blue_mask, 0x0000ffu);
  EXPECT_EQ(h->ncolors, 256u);
  EXPECT_EQ(h->pixel_offset, 117u + 256u * 12u);
}

TEST(XwdHeader, OnlyTheFixedHeaderNeedsToBeInTheBuffer) {
  const XwdBuilder b = XwdBuilder::xvfb();
  const auto bytes = b.bytes();
  std::string why;
  const auto h = parse_xwd_header(std::span(bytes).first(kXwdFixedHeaderBytes), b.exact_total(), why);
  ASSERT_TRUE(h.has_value()) << why;
  EXPECT_EQ(h->pixel_offset, b.pixel_offset());
}

TEST(XwdHeader, PixelOffsetWithoutNameOrColours) {
  XwdBuilder b = XwdBuilder::xvfb(64, 32);
  b.name.clear();
  b.fields[kHeaderSize] = uint32_t(kXwdFixedHeaderBytes);
  b.fields[kNColors] = 0;
  std::string why;
  const auto h = parse(b, b.exact_total(), why);
  ASSERT_TRUE(h.has_value()) << why;
  EXPECT_EQ(h->pixel_offset, kXwdFixedHeaderBytes);
}

TEST(XwdHeader, RejectsBufferShorterThanTheFixedHeader) {
  const XwdBuilder b = XwdBuilder::xvfb();
  const auto bytes = b.bytes();
  std::string why;
  EXPECT_FALSE(parse_xwd_header(std::span(bytes).first(kXwdFixedHeaderBytes - 1), b.exact_total(), why));
  EXPECT_FALSE(why.empty());
  why.clear();
  EXPECT_FALSE(parse_xwd_header(std::span<const uint8_t>(), b.exact_total(), why));
  EXPECT_FALSE(why.empty());
  why.clear();
  EXPECT_FALSE(parse_xwd_header(bytes, kXwdFixedHeaderBytes - 1, why));
  EXPECT_FALSE(why.empty());
}

TEST(XwdHeader, RejectsOtherFileVersions) {
  for (uint32_t v : {0u, 6u, 8u, 0x07000000u}) {
    XwdBuilder b = XwdBuilder::xvfb();
    b.fields[kFileVersion] = v;
    expect_rejected(b, "version");
  }
}

TEST(XwdHeader, RejectsHeaderSizeSmallerThanTheFixedHeader) {
  XwdBuilder b = XwdBuilder::xvfb();
  b.fields[kHeaderSize] = uint32_t(kXwdFixedHeaderBytes - 1);
  expect_rejected(b, "header_size 99");
  b.fields[kHeaderSize] = 0;
  expect_rejected(b, "header_size 0");
}

TEST(XwdHeader, RejectsHeaderSizeLargerThanTheSegment) {
  const XwdBuilder good = XwdBuilder::xvfb();
  XwdBuilder b = good;
  b.fields[kHeaderSize] = uint32_t(good.exact_total() + 1);
  std::string why;
  EXPECT_FALSE(parse(b, good.exact_total(), why));
  EXPECT_FALSE(why.empty());
  b.fields[kHeaderSize] = 0xffffffffu;
  why.clear();
  EXPECT_FALSE(parse(b, good.exact_total(), why));
  EXPECT_FALSE(why.empty());
}

TEST(XwdHeader, RejectsNonZPixmapFormats) {
  for (uint32_t format : {0u, 1u, 3u}) {  // XYBitmap, XYPixmap, junk
    XwdBuilder b = XwdBuilder::xvfb();
    b.fields[kPixmapFormat] = format;
    expect_rejected(b, "format");
  }
}

TEST(XwdHeader, RejectsBigEndianPixels) {
  XwdBuilder b = XwdBuilder::xvfb();
  b.fields[kByteOrder] = 1;  // MSBFirst
  expect_rejected(b, "MSBFirst");
}

TEST(XwdHeader, RejectsPixelSizesOtherThan32Bits) {
  for (uint32_t bpp : {8u, 16u, 24u}) {
    XwdBuilder b = XwdBuilder::xvfb();
    b.fields[kBitsPerPixel] = bpp;
    b.fields[kBytesPerLine] = 1920 * bpp / 8;
    expect_rejected(b, "bits per pixel");
  }
  XwdBuilder b = XwdBuilder::xvfb();
  b.fields[kBitsPerPixel] = 24;  // the stride would still hold 32-bit pixels
  expect_rejected(b, "24 bpp with a 32-bit stride");
}

TEST(XwdHeader, RejectsMasksOtherThan8BitRgb) {
  struct Masks { uint32_t r, g, b; const char* what; };
  for (const Masks m : {Masks{0x0000ff, 0x00ff00, 0xff0000, "BGR"},
                        Masks{0xf800, 0x07e0, 0x001f, "RGB565"},
                        Masks{0x3ff00000, 0x000ffc00, 0x000003ff, "10-bit"},
                        Masks{0xff0000, 0x00ff00, 0x0000fe, "blue short by a bit"},
                        Masks{0xff0000, 0x00ff00, 0, "no blue"},
                        Masks{0xff0000, 0xff0000, 0xff0000, "all red"}}) {
    XwdBuilder b = XwdBuilder::xvfb();
    b.fields[kRedMask] = m.r;
    b.fields[kGreenMask] = m.g;
    b.fields[kBlueMask] = m.b;
    expect_rejected(b, m.what);
  }
}

TEST(XwdHeader, RejectsZeroDimensions) {
  XwdBuilder w = XwdBuilder::xvfb(0, 1080);
  w.fields[kBytesPerLine] = 7680;
  expect_rejected(w, "zero width");
  expect_rejected(XwdBuilder::xvfb(1920, 0), "zero height");
}

TEST(XwdHeader, RejectsHugeDimensions) {
  expect_rejected(XwdBuilder::xvfb(32769, 16), "32769 wide");
  expect_rejected(XwdBuilder::xvfb(16, 32769), "32769 high");
  XwdBuilder b = XwdBuilder::xvfb(16, 16);
  b.fields[kPixmapWidth] = 0x40000001;  // width * 4 wraps around to 4 in 32 bits
  b.fields[kBytesPerLine] = 64;
  expect_rejected(b, "wrapping width");
}

TEST(XwdHeader, AcceptsTheLargestDimension) {
  const XwdBuilder b = XwdBuilder::xvfb(32768, 2);
  std::string why;
  EXPECT_TRUE(parse(b, b.exact_total(), why)) << why;
}

TEST(XwdHeader, RejectsStrideThatDoesNotHoldARow) {
  XwdBuilder b = XwdBuilder::xvfb();
  b.fields[kBytesPerLine] = 1920 * 4 - 4;
  expect_rejected(b, "one pixel short");
  b.fields[kBytesPerLine] = 0;
  expect_rejected(b, "zero stride");
}

TEST(XwdHeader, RejectsStrideNotAMultipleOfFour) {
  for (uint32_t extra : {1u, 2u, 3u}) {
    XwdBuilder b = XwdBuilder::xvfb();
    b.fields[kBytesPerLine] = 1920 * 4 + extra;
    expect_rejected(b, "unaligned stride");
  }
}

TEST(XwdHeader, AcceptsPaddedStride) {
  XwdBuilder b = XwdBuilder::xvfb(1917, 1083);
  b.fields[kBytesPerLine] = 7680;
  std::string why;
  const auto h = parse(b, b.exact_total(), why);
  ASSERT_TRUE(h.has_value()) << why;
  EXPECT_EQ(h->bytes_per_line, 7680u);
  EXPECT_EQ(h->pixmap_width, 1917u);
}

TEST(XwdHeader, RejectsTooManyColours) {
  XwdBuilder b = XwdBuilder::xvfb(16, 16);
  b.fields[kNColors] = 65537;
  expect_rejected(b, "65537 colours");

  b.fields[kNColors] = 65536;
  std::string why;
  const auto h = parse(b, b.exact_total(), why);
  ASSERT_TRUE(h.has_value()) << why;
  EXPECT_EQ(h->pixel_offset, b.fields[kHeaderSize] + size_t{65536} * 12);
}

TEST(XwdHeader, PixelsMustFitInsideTheSegment) {
  const XwdBuilder b = XwdBuilder::xvfb();
  const size_t exact = b.exact_total();
  EXPECT_EQ(exact, 117u + 256u * 12u + 7680u * 1080u);

  std::string why;
  EXPECT_TRUE(parse(b, exact, why)) << why;
  EXPECT_TRUE(parse(b, exact + 4096, why)) << why;

  why.clear();
  EXPECT_FALSE(parse(b, exact - 1, why));
  EXPECT_FALSE(why.empty());
}

TEST(XwdHeader, ColourMapPastTheEndOfTheSegmentIsRejected) {
  const XwdBuilder b = XwdBuilder::xvfb();
  std::string why;
  // Room for the header but not for its colour map.
  EXPECT_FALSE(parse(b, b.fields[kHeaderSize] + 10, why));
  EXPECT_FALSE(why.empty());
  why.clear();
  EXPECT_FALSE(parse(b, b.pixel_offset(), why));  // colours fit, no pixels do
  EXPECT_FALSE(why.empty());
}

TEST(XwdHeader, PaddedStrideCountsTowardsTheSegmentSize) {
  XwdBuilder b = XwdBuilder::xvfb(100, 10);
  b.fields[kBytesPerLine] = 512;
  std::string why;
  EXPECT_TRUE(parse(b, b.pixel_offset() + 512 * 10, why)) << why;
  EXPECT_FALSE(parse(b, b.pixel_offset() + 512 * 10 - 1, why));
  // Enough for 100 * 4 bytes a row, not for the real stride.
  EXPECT_FALSE(parse(b, b.pixel_offset() + 400 * 10, why));
}

XwdHeader xvfb_header() {
  const XwdBuilder b = XwdBuilder::xvfb();
  std::string why;
  const auto h = parse(b, b.exact_total(), why);
  if (!h) ADD_FAILURE() << why;
  return h.value_or(XwdHeader{});
}

TEST(XwdCheckAgainstServer, MatchingScreenIsAccepted) {
  EXPECT_EQ(check_against_server(xvfb_header(), Size{1920, 1080}, 24), "");
}

TEST(XwdCheckAgainstServer, DepthMismatchIsRejected) {
  EXPECT_NE(check_against_server(xvfb_header(), Size{1920, 1080}, 16), "");
  EXPECT_NE(check_against_server(xvfb_header(), Size{1920, 1080}, 32), "");
}

TEST(XwdCheckAgainstServer, RootLargerThanFramebufferIsRejected) {
  const XwdHeader h = xvfb_header();
  EXPECT_NE(check_against_server(h, Size{2560, 1440}, 24), "");
  EXPECT_NE(check_against_server(h, Size{1921, 1080}, 24), "");
  EXPECT_NE(check_against_server(h, Size{1920, 1081}, 24), "");
}

TEST(XwdCheckAgainstServer, RandrShrunkRootIsAccepted) {
  const XwdHeader h = xvfb_header();
  EXPECT_EQ(check_against_server(h, Size{1280, 720}, 24), "");
  EXPECT_EQ(check_against_server(h, Size{1920, 720}, 24), "");
  EXPECT_EQ(check_against_server(h, Size{1, 1}, 24), "");
}

TEST(XwdCheckAgainstServer, EmptyRootIsRejected) {
  const XwdHeader h = xvfb_header();
  EXPECT_NE(check_against_server(h, Size{0, 1080}, 24), "");
  EXPECT_NE(check_against_server(h, Size{1920, -1}, 24), "");
}

}  // namespace
}  // namespace voxl::platform::x11
