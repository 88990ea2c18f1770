// The RandR resizer's pure decisions: names, timings, which mode serves a
// size, the physical size that keeps the DPI and the order of the steps.
#include "platform/x11/randr_mode_plan.h"

#include <gtest/gtest.h>

#include <vector>

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

TEST(RandrModePlan, NamesAreRecognisable) {
  EXPECT_EQ(voxl_mode_name({1280, 720}), "voxl-1280x720");
  EXPECT_TRUE(is_voxl_mode_name("voxl-1280x720"));
  EXPECT_TRUE(is_voxl_mode_name(kVoxlProbeModeName));
  EXPECT_FALSE(is_voxl_mode_name("1280x720"));
  EXPECT_FALSE(is_voxl_mode_name("voxl"));
}

TEST(RandrModePlan, ReducedBlankingMatchesTheKnownModes) {
  // The published CVT-RB timings: 1920x1080 at 138.50 MHz, 2080x1111 total;
  // 1280x720 (a 16:9 size below the minimum blank) at 64.00 MHz, 1440x741.
  const ModeTimings fhd = reduced_blanking_timings({1920, 1080});
  EXPECT_EQ(fhd.dot_clock, 138'500'000u);
  EXPECT_EQ(fhd.htotal, 2080);
  EXPECT_EQ(fhd.hsync_start, 1968);
  EXPECT_EQ(fhd.hsync_end, 2000);
  EXPECT_EQ(fhd.vsync_start, 1083);
  EXPECT_EQ(fhd.vsync_end, 1088);
  EXPECT_EQ(fhd.vtotal, 1111);
  const ModeTimings hd = reduced_blanking_timings({1280, 720});
  EXPECT_EQ(hd.htotal, 1440);
  EXPECT_EQ(hd.vtotal, 741);
  EXPECT_EQ(hd.dot_clock, 64'000'000u);
}

TEST(RandrModePlan, HugeModesStillFitTheClock) {
  const ModeTimings t = reduced_blanking_timings({16384, 16384});
  EXPECT_GT(t.dot_clock, 0u);
  EXPECT_GE(t.htotal, 16384 + 160);
  EXPECT_GT(t.vtotal, 16384);
  // Any size at all: totals stay above the picture.
  const ModeTimings odd = reduced_blanking_timings({1, 1});
  EXPECT_GT(odd.htotal, 1);
  EXPECT_GT(odd.vtotal, 1);
}

TEST(RandrModePlan, PicksTheCurrentThenTheServersThenVoxls) {
  const std::vector<OfferedMode> offered = {
      {1, {1920, 1080}, "1920x1080i", true},
      {2, {1920, 1080}, "voxl-1920x1080", false},
      {3, {1920, 1080}, "1920x1080", false},
      {4, {1280, 720}, "voxl-1280x720", false},
  };
  EXPECT_EQ(pick_mode(offered, {1920, 1080}, 0), 3u);
  EXPECT_EQ(pick_mode(offered, {1920, 1080}, 2), 2u) << "the mode in use wins";
  EXPECT_EQ(pick_mode(offered, {1280, 720}, 0), 4u);
  EXPECT_EQ(pick_mode(offered, {1000, 700}, 0), std::nullopt);
  const std::vector<OfferedMode> interlaced = {{1, {800, 600}, "800x600i", true}};
  EXPECT_EQ(pick_mode(interlaced, {800, 600}, 1), std::nullopt) << "interlaced modes are never picked";
}

TEST(RandrModePlan, MillimetresKeepTheDpi) {
  // Xvfb's 3840x2160 at 100 DPI: 975x549 mm.
  EXPECT_EQ(millimetres_for({1920, 1080}, {3840, 2160}, {975, 549}), (Size{488, 275}));
  EXPECT_EQ(millimetres_for({3840, 2160}, {3840, 2160}, {975, 549}), (Size{975, 549}));
  // No physical size known: 96 DPI.
  EXPECT_EQ(millimetres_for({1920, 1080}, {1920, 1080}, {0, 0}), (Size{508, 286}));
  EXPECT_EQ(millimetres_for({1, 1}, {3840, 2160}, {975, 549}), (Size{1, 1}));
}

TEST(RandrModePlan, TheCrtcAlwaysFitsTheScreen) {
  // Shrinking: the CRTC first, then the screen.
  ScreenSteps s = plan_screen_steps({1920, 1080}, {1280, 720});
  EXPECT_EQ(s.before_crtc, std::nullopt);
  EXPECT_EQ(s.after_crtc, (Size{1280, 720}));
  // Growing: the screen first.
  s = plan_screen_steps({1280, 720}, {1920, 1080});
  EXPECT_EQ(s.before_crtc, (Size{1920, 1080}));
  EXPECT_EQ(s.after_crtc, std::nullopt);
  // Wider but shorter: big enough for both, then down to the target.
  s = plan_screen_steps({1280, 1024}, {1920, 720});
  EXPECT_EQ(s.before_crtc, (Size{1920, 1024}));
  EXPECT_EQ(s.after_crtc, (Size{1920, 720}));
  // Same size (a new mode of it): no screen change.
  s = plan_screen_steps({800, 600}, {800, 600});
  EXPECT_EQ(s.before_crtc, std::nullopt);
  EXPECT_EQ(s.after_crtc, std::nullopt);
}

TEST(RandrModePlan, QuarterTurnsSwapTheModesSides) {
  EXPECT_EQ(mode_size_for({1920, 1080}, 1), (Size{1920, 1080}));
  EXPECT_EQ(mode_size_for({1920, 1080}, 2), (Size{1080, 1920}));
  EXPECT_EQ(mode_size_for({1920, 1080}, 4), (Size{1920, 1080}));
  EXPECT_EQ(mode_size_for({1920, 1080}, 8 | 16), (Size{1080, 1920}));
}

TEST(RandrModePlan, RangeErrorsSayTheLimits) {
  EXPECT_EQ(check_size_range({1920, 1080}, {1, 1}, {3840, 2160}), "");
  EXPECT_EQ(check_size_range({3840, 2160}, {1, 1}, {3840, 2160}), "");
  EXPECT_EQ(check_size_range({4096, 2160}, {1, 1}, {3840, 2160}),
            "4096x2160 is larger than the X screen allows (1x1 to 3840x2160)");
  EXPECT_EQ(check_size_range({320, 100}, {320, 200}, {3840, 2160}),
            "320x100 is smaller than the X screen allows (320x200 to 3840x2160)");
}

}  // namespace
}  // namespace voxl::platform::x11
