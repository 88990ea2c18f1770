// PNG encoding read back with libpng: every pixel of a BGRX picture (and of
// a crop of it, with a stride wider than the row) comes back as RGB.
#include "endpoints/png_encoder.h"

#include <gtest/gtest.h>
#include <png.h>

#include <vector>

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

uint32_t colour_at(int x, int y) { return uint32_t((x * 7) & 0xff) << 16 | uint32_t((y * 13) & 0xff) << 8 | uint32_t((x ^ y) & 0xff); }

std::vector<uint8_t> decode_rgb(const std::string& file, png_image& image) {
  image = {};
  image.version = PNG_IMAGE_VERSION;
  EXPECT_TRUE(png_image_begin_read_from_memory(&image, file.data(), file.size())) << image.message;
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> rgb(PNG_IMAGE_SIZE(image));
  EXPECT_TRUE(png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr)) << image.message;
  return rgb;
}

void expect_round_trip(const PngOptions& options) {
  const Size full{97, 61};
  const int stride = full.width * 4 + 12;
  std::vector<uint8_t> bgrx(size_t(stride) * size_t(full.height), 0xee);
  for (int y = 0; y < full.height; ++y)
    for (int x = 0; x < full.width; ++x) {
      const uint32_t c = colour_at(x, y);
      uint8_t* p = &bgrx[size_t(y) * size_t(stride) + size_t(x) * 4];
      p[0] = uint8_t(c), p[1] = uint8_t(c >> 8), p[2] = uint8_t(c >> 16), p[3] = 0;
    }
  const Rect crop{5, 7, 40, 30};
  std::string error;
  const std::string file =
      encode_png(&bgrx[size_t(crop.y) * size_t(stride) + size_t(crop.x) * 4], stride, crop.size(), error, options);
  ASSERT_FALSE(file.empty()) << error;
  png_image image;
  const auto rgb = decode_rgb(file, image);
  ASSERT_EQ(int(image.width), crop.width);
  ASSERT_EQ(int(image.height), crop.height);
  for (int y = 0; y < crop.height; ++y)
    for (int x = 0; x < crop.width; ++x) {
      const uint8_t* p = &rgb[size_t(y * crop.width + x) * 3];
      const uint32_t got = uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2];
      ASSERT_EQ(got, colour_at(crop.x + x, crop.y + y)) << "at " << x << "," << y;
    }
}

TEST(PngEncoder, RoundTripsWithTheFastSettings) { expect_round_trip({}); }
TEST(PngEncoder, RoundTripsUnfilteredAndDefaultStrategy) { expect_round_trip({6, false, false}); }

TEST(PngEncoder, RefusesAnEmptyPicture) {
  std::string error;
  uint8_t px[4] = {};
  EXPECT_TRUE(encode_png(px, 4, {0, 1}, error).empty());
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace voxl::endpoints
