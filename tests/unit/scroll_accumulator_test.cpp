#include "input/scroll_accumulator.h"

#include <gtest/gtest.h>

#include <limits>

namespace voxl::input {
namespace VOXL_TEST_FILE {

TEST(ScrollAccumulator, SmoothDeltasAddUpToNotches) {
  ScrollAccumulator s(180);
  int total = 0;
  for (int i = 0; i < 9; ++i) total += s.add_pixels(0, 40).dy;  // 360 px
  EXPECT_EQ(total, 2);
  EXPECT_EQ(s.add_pixels(0, 140).dy, 0);  // 0 + 140 of the next 180
  EXPECT_EQ(s.add_pixels(0, 40).dy, 1);
}

TEST(ScrollAccumulator, BigDeltaGivesSeveralNotchesAndKeepsTheRest) {
  ScrollAccumulator s(180);
  EXPECT_EQ(s.add_pixels(0, 500).dy, 2);  // 140 left
  EXPECT_EQ(s.add_pixels(0, 40).dy, 1);
}

TEST(ScrollAccumulator, ReversalDropsTheRemainder) {
  ScrollAccumulator s(180);
  EXPECT_EQ(s.add_pixels(0, 170).dy, 0);
  EXPECT_EQ(s.add_pixels(0, -20).dy, 0);   // not +150 left over
  EXPECT_EQ(s.add_pixels(0, -160).dy, -1);
}

TEST(ScrollAccumulator, AxesAreIndependentAndFractionalNotchesCount) {
  ScrollAccumulator s(100);
  Notches n = s.add_pixels(-250, 100);
  EXPECT_EQ(n.dx, -2);
  EXPECT_EQ(n.dy, 1);
  int total = 0;
  for (int i = 0; i < 3; ++i) total += s.add_notches(0, 1.0 / 3.0).dy;
  EXPECT_EQ(total, 1);
}

TEST(ScrollAccumulator, IgnoresNonsense) {
  ScrollAccumulator s(0);  // treated as 1 px per notch
  EXPECT_EQ(s.add_pixels(0, std::numeric_limits<double>::quiet_NaN()).dy, 0);
  EXPECT_EQ(s.add_pixels(0, 1e9).dy, 100);  // bounded per message
  s.reset();
  EXPECT_EQ(s.add_pixels(0, 0.5).dy, 0);
}

}  // namespace
}  // namespace voxl::input
