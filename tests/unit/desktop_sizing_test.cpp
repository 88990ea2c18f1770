#include "stream/viewer/desktop_sizing.h"

#include <gtest/gtest.h>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

TEST(DesktopSizing, RoundsWidthToEightAndHeightToEven) {
  const auto l = desktop_size_limits({3840, 2160});
  EXPECT_EQ(fit_desktop_size({1283, 721}, l), (Size{1280, 720}));
  EXPECT_EQ(fit_desktop_size({1287, 723}, l), (Size{1280, 722}));
  EXPECT_EQ(fit_desktop_size({1920, 1080}, l), (Size{1920, 1080}));
  EXPECT_EQ(fit_desktop_size({361, 641}, l), (Size{360, 640})) << "a phone held upright";
}

TEST(DesktopSizing, ClampsToTheLimits) {
  const auto l = desktop_size_limits({3840, 2160});
  EXPECT_EQ(l.min, DesktopSizeLimits::kSmallest);
  EXPECT_EQ(fit_desktop_size({1, 1}, l), (Size{320, 240}));
  EXPECT_EQ(fit_desktop_size({100000, 50}, l), (Size{3840, 240}));
  EXPECT_EQ(fit_desktop_size({16384, 16384}, l), (Size{3840, 2160}));
}

TEST(DesktopSizing, AnOddLargestSizeIsRoundedToo) {
  const auto l = desktop_size_limits({1366, 769});
  EXPECT_EQ(l.max, (Size{1360, 768}));
  EXPECT_EQ(fit_desktop_size({2000, 2000}, l), (Size{1360, 768}));
}

TEST(DesktopSizing, ADisplaySmallerThanTheMinimumKeepsItsOwnSize) {
  const auto l = desktop_size_limits({200, 150});
  EXPECT_EQ(l.min, (Size{200, 150}));
  EXPECT_EQ(l.max, (Size{200, 150}));
  EXPECT_EQ(fit_desktop_size({1920, 1080}, l), (Size{200, 150}));
  EXPECT_EQ(fit_desktop_size({1, 1}, l), (Size{200, 150}));
}

TEST(DesktopSizing, NoLimitsNoSize) {
  EXPECT_TRUE(fit_desktop_size({800, 600}, desktop_size_limits({})).empty());
  EXPECT_TRUE(fit_desktop_size({800, 600}, desktop_size_limits({7, 1})).empty());
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

TEST(DesktopSizing, AHugeDisplayIsCappedToWhatCanBeStreamed) {
  const auto l = desktop_size_limits({32767, 32767});
  EXPECT_EQ(l.max, (Size{4096, 4096}));
  EXPECT_EQ(fit_desktop_size({16384, 16384}, l), (Size{2880, 2880})) << "3840x2160's area, square";
  const Size wide = fit_desktop_size({4096, 2304}, l);
  EXPECT_LE(wide.area(), DesktopSizeLimits::kLargestArea);
  EXPECT_EQ(wide, (Size{3840, 2160}));
  EXPECT_EQ(fit_desktop_size({2160, 3840}, l), (Size{2160, 3840})) << "a portrait 4K screen fits";
}

}  // namespace
}  // namespace voxl::stream
