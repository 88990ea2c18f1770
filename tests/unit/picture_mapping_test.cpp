#include "input/picture_mapping.h"

#include <gtest/gtest.h>

namespace voxl::input {
namespace VOXL_TEST_FILE {

TEST(PictureMappingTest, TheScreenMapsOneToOne) {
  const PictureMapping m{{0, 0}, {1920, 1080}};
  EXPECT_EQ(m.to_desktop(0, 0), (Point{0, 0}));
  EXPECT_EQ(m.to_desktop(1919, 1079), (Point{1919, 1079}));
  EXPECT_EQ(m.to_desktop(640, 360), (Point{640, 360}));
}

TEST(PictureMappingTest, ARegionIsMovedByItsCorner) {
  const PictureMapping m{{100, 50}, {640, 480}};
  EXPECT_EQ(m.to_desktop(0, 0), (Point{100, 50}));
  EXPECT_EQ(m.to_desktop(10, 20), (Point{110, 70}));
  EXPECT_EQ(m.to_desktop(639, 479), (Point{739, 529}));
  EXPECT_EQ(m.desktop_area(), (Rect{100, 50, 640, 480}));
  EXPECT_EQ(m.to_desktop(Rect{1, 2, 3, 4}), (Rect{101, 52, 3, 4}));
}

TEST(PictureMappingTest, AWindowAnywhereOnTheScreen) {
  // A window may lie partly off the screen: its origin is then negative.
  const PictureMapping m{{-30, 700}, {200, 150}};
  EXPECT_EQ(m.to_desktop(0, 0), (Point{-30, 700}));
  EXPECT_EQ(m.to_desktop(50, 10), (Point{20, 710}));
}

TEST(PictureMappingTest, PositionsAreClampedToTheCapturedArea) {
  const PictureMapping m{{300, 200}, {640, 480}};
  EXPECT_EQ(m.to_desktop(-5, -1), (Point{300, 200}));
  EXPECT_EQ(m.to_desktop(640, 480), (Point{939, 679}));
  EXPECT_EQ(m.to_desktop(100000, 10), (Point{939, 210}));
  EXPECT_EQ(m.to_desktop(10, 100000), (Point{310, 679}));
}

TEST(PictureMappingTest, OddSizesKeepTheirLastColumnAndRow) {
  // A 641x481 window: the stream codes 640x480 of it, but its last column
  // and row are still part of the captured area (and of /screenshot).
  const PictureMapping m{{7, 9}, {641, 481}};
  EXPECT_EQ(m.to_desktop(640, 480), (Point{647, 489}));
  EXPECT_EQ(m.to_desktop(641, 481), (Point{647, 489}));
  const PictureMapping one{{5, 5}, {1, 1}};
  EXPECT_EQ(one.to_desktop(3, -3), (Point{5, 5}));
}

TEST(PictureMappingTest, ASizeChangeMovesTheClamp) {
  PictureMapping m{{0, 0}, {1920, 1080}};
  EXPECT_EQ(m.to_desktop(1500, 1000), (Point{1500, 1000}));
  m.area = {1024, 768};  // the desktop shrank
  EXPECT_EQ(m.to_desktop(1500, 1000), (Point{1023, 767}));
  m.area = {3840, 2160};  // and grew
  EXPECT_EQ(m.to_desktop(3000, 2000), (Point{3000, 2000}));
}

TEST(PictureMappingTest, AnUnknownAreaClampsOnlyAtZero) {
  const PictureMapping m{{10, 10}, {}};
  EXPECT_FALSE(m.known());
  EXPECT_EQ(m.to_desktop(-4, 5000), (Point{10, 5010}));
}

TEST(PictureMappingTest, FarOffValuesDoNotOverflow) {
  const PictureMapping m{{2000000000, -2000000000}, {}};
  const Point p = m.to_desktop(2000000000, 0);
  EXPECT_GT(p.x, 0);
  EXPECT_LT(p.y, 0);
}

}  // namespace
}  // namespace voxl::input
