#include "platform/x11/pixel_format.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

constexpr PixelFormat kNative{32, 0xff0000, 0x00ff00, 0x0000ff};
constexpr PixelFormat kRgb565{16, 0xf800, 0x07e0, 0x001f};
constexpr PixelFormat kPacked24{24, 0xff0000, 0x00ff00, 0x0000ff};
constexpr PixelFormat kBgr32{32, 0x0000ff, 0x00ff00, 0xff0000};

std::vector<uint8_t> le16(std::initializer_list<uint16_t> pixels) {
  std::vector<uint8_t> out;
  for (uint16_t p : pixels) {
    out.push_back(uint8_t(p));
    out.push_back(uint8_t(p >> 8));
  }
  return out;
}

std::vector<uint8_t> le24(std::initializer_list<uint32_t> pixels) {
  std::vector<uint8_t> out;
  for (uint32_t p : pixels) {
    out.push_back(uint8_t(p));
    out.push_back(uint8_t(p >> 8));
    out.push_back(uint8_t(p >> 16));
  }
  return out;
}

std::vector<uint8_t> le32(std::initializer_list<uint32_t> pixels) {
  std::vector<uint8_t> out;
  for (uint32_t p : pixels) {
    out.push_back(uint8_t(p));
    out.push_back(uint8_t(p >> 8));
    out.push_back(uint8_t(p >> 16));
    out.push_back(uint8_t(p >> 24));
  }
  return out;
}

std::vector<uint32_t> convert(const std::vector<uint8_t>& src, const PixelFormat& fmt, int width) {
  // One spare slot on each side to catch writes outside the row.
  std::vector<uint32_t> dst(size_t(width) + 2, 0xdeadbeef);
  convert_row(src.data(), fmt, width, dst.data() + 1);
  EXPECT_EQ(dst.front(), 0xdeadbeefu);
  EXPECT_EQ(dst.back(), 0xdeadbeefu);
  return std::vector<uint32_t>(dst.begin() + 1, dst.end() - 1);
}

TEST(ZpixmapRowBytes, PadsToTheScanlinePad) {
  // 3 pixels of 24 bits = 72 bits.
  EXPECT_EQ(zpixmap_row_bytes(3, 24, 8), 9u);
  EXPECT_EQ(zpixmap_row_bytes(3, 24, 16), 10u);
  EXPECT_EQ(zpixmap_row_bytes(3, 24, 32), 12u);
  // 3 pixels of 16 bits = 48 bits.
  EXPECT_EQ(zpixmap_row_bytes(3, 16, 8), 6u);
  EXPECT_EQ(zpixmap_row_bytes(3, 16, 16), 6u);
  EXPECT_EQ(zpixmap_row_bytes(3, 16, 32), 8u);
  // 32-bit pixels never need padding at these pads.
  EXPECT_EQ(zpixmap_row_bytes(1917, 32, 8), 7668u);
  EXPECT_EQ(zpixmap_row_bytes(1917, 32, 32), 7668u);
  // 1 bit per pixel.
  EXPECT_EQ(zpixmap_row_bytes(9, 1, 8), 2u);
  EXPECT_EQ(zpixmap_row_bytes(9, 1, 32), 4u);
  EXPECT_EQ(zpixmap_row_bytes(1, 16, 32), 4u);
}

TEST(ZpixmapRowBytes, BadInputGivesZero) {
  EXPECT_EQ(zpixmap_row_bytes(0, 32, 32), 0u);
  EXPECT_EQ(zpixmap_row_bytes(-1, 32, 32), 0u);
  EXPECT_EQ(zpixmap_row_bytes(10, 0, 32), 0u);
  EXPECT_EQ(zpixmap_row_bytes(10, -32, 32), 0u);
  EXPECT_EQ(zpixmap_row_bytes(10, 32, 0), 0u);
  EXPECT_EQ(zpixmap_row_bytes(10, 32, -32), 0u);
  EXPECT_EQ(zpixmap_row_bytes(10, 32, 12), 0u);  // not a whole number of bytes
}

TEST(ConvertRow, NativeFormatIsCopied) {
  ASSERT_TRUE(kNative.is_native());
  const auto src = le32({0x00123456, 0x00abcdef, 0x00ffffff, 0x00000000});
  EXPECT_EQ(convert(src, kNative, 4), (std::vector<uint32_t>{0x123456, 0xabcdef, 0xffffff, 0}));
}

TEST(ConvertRow, Rgb565ExpandsEachChannelToFullScale) {
  const auto src = le16({0xffff, 0x0000, 0xf800, 0x07e0, 0x001f, 0xffe0});
  EXPECT_EQ(convert(src, kRgb565, 6), (std::vector<uint32_t>{0xffffff, 0x000000, 0xff0000,
                                                            0x00ff00, 0x0000ff, 0xffff00}));
}

TEST(ConvertRow, Rgb565MidValuesReplicateHighBits) {
  // red 16/31, green 32/63, blue 1/31
  const uint16_t px = uint16_t(16 << 11 | 32 << 5 | 1);
  const auto out = convert(le16({px}), kRgb565, 1);
  // 5 bits abcde -> abcdeabc, 6 bits abcdef -> abcdefab.
  EXPECT_EQ(out[0], 0x848208u);
}

TEST(ConvertRow, Packed24BitPixels) {
  ASSERT_FALSE(kPacked24.is_native());
  const auto src = le24({0x123456, 0xffffff, 0x000000, 0xff0000, 0x0000ff});
  EXPECT_EQ(convert(src, kPacked24, 5),
            (std::vector<uint32_t>{0x123456, 0xffffff, 0x000000, 0xff0000, 0x0000ff}));
}

TEST(ConvertRow, SwappedMasksAreReordered) {
  ASSERT_FALSE(kBgr32.is_native());
  const auto src = le32({0x00123456, 0x000000ff});
  EXPECT_EQ(convert(src, kBgr32, 2), (std::vector<uint32_t>{0x563412, 0xff0000}));
}

TEST(ConvertRow, PaddingBitsAreDropped) {
  // Bits outside every mask (here the top byte) do not leak into the result.
  const auto src = le32({0xff123456});
  EXPECT_EQ(convert(src, kBgr32, 1), (std::vector<uint32_t>{0x563412}));
}

TEST(ConvertRow, ZeroWidthWritesNothing) {
  const std::vector<uint8_t> src(8, 0xff);
  EXPECT_TRUE(convert(src, kRgb565, 0).empty());
  EXPECT_TRUE(convert(src, kNative, 0).empty());
}

TEST(PixelFormat, NativeOnlyForThe32BitRgbLayout) {
  EXPECT_TRUE(PixelFormat{}.is_native());
  EXPECT_TRUE(kNative.is_native());
  EXPECT_FALSE(kRgb565.is_native());
  EXPECT_FALSE(kPacked24.is_native());
  EXPECT_FALSE(kBgr32.is_native());
}

TEST(PixelFormat, ConvertibleFormats) {
  EXPECT_TRUE(kNative.convertible());
  EXPECT_TRUE(kRgb565.convertible());
  EXPECT_TRUE(kPacked24.convertible());
  EXPECT_TRUE(kBgr32.convertible());
  EXPECT_TRUE((PixelFormat{16, 0x7c00, 0x03e0, 0x001f}.convertible()));  // RGB555
  EXPECT_TRUE((PixelFormat{16, 0x001f, 0x07e0, 0xf800}.convertible()));  // BGR565
}

TEST(PixelFormat, UnsupportedDepthsAreNotConvertible) {
  for (int bpp : {0, 1, 8, 15, 31, 64})
    EXPECT_FALSE((PixelFormat{bpp, 0xff0000, 0x00ff00, 0x0000ff}.convertible())) << bpp;
}

TEST(PixelFormat, BadMasksAreNotConvertible) {
  EXPECT_FALSE((PixelFormat{32, 0, 0x00ff00, 0x0000ff}.convertible()));            // no red
  EXPECT_FALSE((PixelFormat{32, 0xff0000, 0, 0x0000ff}.convertible()));            // no green
  EXPECT_FALSE((PixelFormat{32, 0xff0000, 0x00ff00, 0}.convertible()));            // no blue
  EXPECT_FALSE((PixelFormat{32, 0xf0f000, 0x00ff00, 0x0000ff}.convertible()));     // gap in red
  EXPECT_FALSE((PixelFormat{16, 0xf800, 0x0660, 0x001f}.convertible()));           // gap in green
  EXPECT_FALSE((PixelFormat{32, 0x3ff00000, 0x000ffc00, 0x3ff}.convertible()));    // 10 bits
  EXPECT_FALSE((PixelFormat{32, 0x1ff0000, 0x00ff00, 0x0000ff}.convertible()));    // 9-bit red
}

}  // namespace
}  // namespace voxl::platform::x11
