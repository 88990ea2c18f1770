// Scaled pictures for agents: the sizes asked for, the mapping of
// positions both ways without drift at odd sizes, the area filter and the
// pointer drawn in.
#include "endpoints/picture_scale.h"

#include <gtest/gtest.h>

#include <vector>

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

ScaleSpec spec_of(const std::string& query) {
  net::ParamError e;
  auto q = net::Query::parse(query, e);
  EXPECT_TRUE(q) << query;
  ScaleSpec s;
  EXPECT_TRUE(parse_scale(*q, s, e)) << query << " -> " << e.message;
  return s;
}

std::string bad(const std::string& query) {
  net::ParamError e;
  auto q = net::Query::parse(query, e);
  EXPECT_TRUE(q) << query;
  ScaleSpec s;
  EXPECT_FALSE(parse_scale(*q, s, e)) << query;
  EXPECT_FALSE(e.message.empty());
  return e.parameter;
}

TEST(PictureScale, TheSizesAskedFor) {
  EXPECT_EQ(Scaling::fit({2560, 1600}, spec_of("max_width=1280&max_height=800")).scaled(), (Size{1280, 800}));
  EXPECT_EQ(Scaling::fit({1023, 767}, spec_of("max_width=640")).scaled(), (Size{640, 480}));
  EXPECT_EQ(Scaling::fit({1920, 1080}, spec_of("max_width=1280&max_height=800")).scaled(), (Size{1280, 720}));
  EXPECT_EQ(Scaling::fit({1001, 999}, spec_of("scale=0.5")).scaled(), (Size{501, 500}));
  EXPECT_TRUE(Scaling::fit({800, 600}, spec_of("max_width=1280")).identity()) << "never enlarged";
  EXPECT_TRUE(Scaling::fit({800, 600}, ScaleSpec{}).identity());
  EXPECT_EQ(Scaling::fit({7, 5}, ScaleSpec{0.05, 0, 0}).scaled(), (Size{1, 1})) << "at least a pixel";
  EXPECT_EQ(bad("scale=0"), "scale");
  EXPECT_EQ(bad("scale=1.5"), "scale");
  EXPECT_EQ(bad("scale=half"), "scale");
  EXPECT_EQ(bad("scale=nan"), "scale");
  EXPECT_EQ(bad("scale=0.5&max_width=100"), "scale");
  EXPECT_EQ(bad("max_width=15"), "max_width");
  EXPECT_EQ(bad("max_height=20000"), "max_height");
}

TEST(PictureScale, PositionsRoundTripWithoutDriftAtOddSizes) {
  const std::vector<std::pair<Size, Size>> cases = {
      {{1023, 767}, {640, 480}}, {{1001, 999}, {333, 332}}, {{7, 5}, {3, 2}}, {{2560, 1600}, {1280, 800}},
      {{1920, 1080}, {1919, 1079}}, {{641, 481}, {640, 480}}};
  for (const auto& [full, seen] : cases) {
    const Scaling s(full, seen);
    const int ceil_x = (full.width + seen.width - 1) / seen.width, ceil_y = (full.height + seen.height - 1) / seen.height;
    for (int x = 0; x < seen.width; ++x) {
      const Point f = s.to_full(x, 0);
      ASSERT_GE(f.x, 0);
      ASSERT_LT(f.x, full.width);
      ASSERT_EQ(s.to_scaled(f.x, 0).x, x) << full.width << "->" << seen.width << " at " << x;
      // However often it goes back and forth.
      ASSERT_EQ(s.to_full(s.to_scaled(f.x, 0).x, 0).x, f.x);
    }
    for (int y = 0; y < seen.height; ++y) ASSERT_EQ(s.to_scaled(0, s.to_full(0, y).y).y, y);
    for (int x = 0; x < full.width; ++x) {
      const int back = s.to_full(s.to_scaled(x, 0).x, 0).x;
      ASSERT_LE(std::abs(back - x), ceil_x) << x;
    }
    for (int y = 0; y < full.height; ++y) ASSERT_LE(std::abs(s.to_full(0, s.to_scaled(0, y).y).y - y), ceil_y);
  }
}

TEST(PictureScale, RectanglesCoverWhatTheyShow) {
  const Scaling s({1023, 767}, {640, 480});
  const Rect full = s.to_full(Rect{100, 50, 200, 100});
  EXPECT_LE(full.x, s.to_full(100, 50).x);
  EXPECT_GE(full.x + full.width, s.to_full(299, 149).x + 1);
  EXPECT_TRUE(Rect::from_size({1023, 767}).contains(s.to_full(Rect{0, 0, 640, 480})));
  EXPECT_EQ(s.to_full(Rect{0, 0, 640, 480}), (Rect{0, 0, 1023, 767}));
  EXPECT_EQ(s.to_scaled(Rect{0, 0, 1023, 767}), (Rect{0, 0, 640, 480}));
  const Rect one = s.to_scaled(Rect{500, 500, 1, 1});
  EXPECT_GE(one.width, 1);
  EXPECT_EQ(Scaling().to_full(Rect{1, 2, 3, 4}), (Rect{1, 2, 3, 4}));
}

TEST(PictureScale, TheAreaFilterAverages) {
  // 2x2 pixels of four greys -> one pixel, their mean.
  const std::vector<uint8_t> src = {0, 0, 0, 255, 100, 100, 100, 255, 200, 200, 200, 255, 60, 60, 60, 255};
  std::vector<uint8_t> dst(4);
  ASSERT_TRUE(scale_bgra(src.data(), 8, {2, 2}, dst.data(), 4, {1, 1}));
  EXPECT_NEAR(dst[0], 90, 1);
  EXPECT_NEAR(dst[2], 90, 1);
  EXPECT_FALSE(scale_bgra(src.data(), 8, {2, 2}, dst.data(), 4, {3, 1})) << "never enlarges";
  EXPECT_FALSE(scale_bgra(src.data(), 8, {0, 2}, dst.data(), 4, {1, 1}));
}

TEST(PictureScale, ThePointerIsBlendedAndClipped) {
  input::CursorImage c;
  c.width = 2;
  c.height = 2;
  c.hot_x = 1;
  c.hot_y = 1;
  // Opaque red, half-transparent green, transparent, opaque blue.
  c.rgba = {255, 0, 0, 255, 0, 255, 0, 128, 9, 9, 9, 0, 0, 0, 255, 255};
  const Size size{4, 4};
  std::vector<uint8_t> pic(4 * 4 * 4, 0);
  draw_cursor(pic.data(), 16, size, c, {1, 1});  // the image's corner at 0,0
  const auto px = [&](int x, int y) { return &pic[size_t(y) * 16 + size_t(x) * 4]; };
  EXPECT_EQ(px(0, 0)[2], 255) << "red lands in R (byte 2 of B, G, R, X)";
  EXPECT_EQ(px(0, 0)[0], 0);
  EXPECT_NEAR(px(1, 0)[1], 128, 1) << "half green over black";
  EXPECT_EQ(px(0, 1)[0], 0) << "transparent leaves the picture";
  EXPECT_EQ(px(1, 1)[0], 255) << "blue in B";
  // Partly and wholly outside: clipped, no write beyond the picture.
  std::vector<uint8_t> edge(4 * 4 * 4, 7);
  draw_cursor(edge.data(), 16, size, c, {0, 0});
  EXPECT_EQ(edge[size_t(0)], 255) << "only the blue corner is inside";
  draw_cursor(edge.data(), 16, size, c, {4, 4});
  draw_cursor(edge.data(), 16, size, c, {-5, 100});
  draw_cursor(edge.data(), 16, size, c, {1 << 30, -(1 << 30)});
  int changed = 0;
  for (size_t i = 0; i < edge.size(); ++i) changed += edge[i] != 7;
  EXPECT_LE(changed, 4 + 3) << "the blue pixel, plus the red at 3,3";
  input::CursorImage broken = c;
  broken.rgba.resize(3);
  draw_cursor(pic.data(), 16, size, broken, {1, 1});  // too few pixels: nothing drawn
}

}  // namespace
}  // namespace voxl::endpoints
