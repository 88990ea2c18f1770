// The rectangles of a rounded window shape (platform/x11/rounded_shape.h),
// checked against the circle they stand for at every size.
#include "platform/x11/rounded_shape.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

// Whether pixel (x, y) is inside the union of `rects`.
bool covered(const std::vector<Rect>& rects, int x, int y) {
  for (const Rect& r : rects)
    if (x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height) return true;
  return false;
}

TEST(RoundedShape, NoRadiusIsTheWholeWindow) {
  EXPECT_EQ(rounded_rectangles({300, 200}, 0), (std::vector<Rect>{{0, 0, 300, 200}}));
  EXPECT_EQ(rounded_rectangles({300, 200}, -4), (std::vector<Rect>{{0, 0, 300, 200}}));
  EXPECT_TRUE(rounded_rectangles({0, 200}, 8).empty());
}

TEST(RoundedShape, BandsAreDisjointOrderedAndSymmetric) {
  for (const Size s : {Size{1, 1}, Size{2, 2}, Size{7, 3}, Size{24, 24}, Size{25, 24}, Size{640, 480}, Size{33, 1000}}) {
    for (const int r : {1, 2, 3, 5, 12, 16, 40, 500}) {
      const auto rects = rounded_rectangles(s, r);
      ASSERT_FALSE(rects.empty());
      int y = 0;
      for (const Rect& band : rects) {
        EXPECT_EQ(band.y, y) << "bands follow each other, top to bottom";
        EXPECT_GT(band.height, 0);
        EXPECT_GT(band.width, 0);
        EXPECT_EQ(band.x * 2 + band.width, s.width) << "centred: the same inset on both sides";
        y += band.height;
      }
      EXPECT_EQ(y, s.height) << s.width << "x" << s.height << " r" << r;
      for (size_t i = 0; i < rects.size(); ++i)
        EXPECT_EQ(rects[i].x, rects[rects.size() - 1 - i].x) << "top and bottom mirror each other";
    }
  }
}

TEST(RoundedShape, CornersFollowTheCircle) {
  const Size s{200, 100};
  const int r = 12;
  const auto rects = rounded_rectangles(s, r);
  // The very corner is cut, the middle of every edge is not.
  for (const auto& [x, y] : {std::pair{0, 0}, {199, 0}, {0, 99}, {199, 99}, {1, 1}, {2, 1}})
    EXPECT_FALSE(covered(rects, x, y)) << x << "," << y;
  for (const auto& [x, y] : {std::pair{100, 0}, {0, 50}, {199, 50}, {100, 99}, {12, 12}, {187, 87}})
    EXPECT_TRUE(covered(rects, x, y)) << x << "," << y;
  // Every pixel of a corner square is in the shape exactly when its centre
  // is within the circle, give or take the half pixel of rounding.
  for (int y = 0; y < r; ++y) {
    for (int x = 0; x < r; ++x) {
      const double d = std::hypot(double(r) - (x + 0.5), double(r) - (y + 0.5));
      if (d < r - 1) {
        EXPECT_TRUE(covered(rects, x, y)) << x << "," << y;
      }
      if (d > r + 1) {
        EXPECT_FALSE(covered(rects, x, y)) << x << "," << y;
      }
    }
  }
}

TEST(RoundedShape, RadiusIsClampedToHalfTheSmallerSide) {
  EXPECT_EQ(rounded_rectangles({40, 10}, 100), rounded_rectangles({40, 10}, 5));
  const auto pill = rounded_rectangles({40, 10}, 5);
  EXPECT_EQ(pill.front().y, 0);
  EXPECT_EQ(pill.back().y + pill.back().height, 10);
}

}  // namespace
}  // namespace voxl::platform::x11
