// The display flags: a private Xvfb, a display, voxl's own Wayland
// compositor, X11 or Wayland, and the capture target.
#include <gtest/gtest.h>

#include "config_parse.h"

namespace voxl::app {
namespace VOXL_TEST_FILE {

using config_testing::accepted;
using config_testing::expect_refusal;
using config_testing::expect_rejected;

// ------------------------------------------------------------ display flags

TEST(ConfigCommandLine, XvfbWithoutValueIsFullHd) {
  EXPECT_EQ(accepted({"--xvfb"}).xvfb, (Size{1920, 1080}));
}

TEST(ConfigCommandLine, XvfbWithoutValueFollowedByAnotherOption) {
  const Config c = accepted({"--xvfb", "--framerate=30"});
  EXPECT_EQ(c.xvfb, (Size{1920, 1080}));
  EXPECT_EQ(c.framerate, 30);
}

TEST(ConfigCommandLine, XvfbWithSize) {
  EXPECT_EQ(accepted({"--xvfb=1280x720"}).xvfb, (Size{1280, 720}));
  EXPECT_EQ(accepted({"--xvfb", "1280x720"}).xvfb, (Size{1280, 720}));
}

TEST(ConfigCommandLine, XvfbWithBadSizeIsRejected) {
  expect_refusal({"--xvfb=bad"}, "--xvfb", "1920x1080");
  expect_rejected({"--xvfb=0x720"});
  expect_rejected({"--xvfb=1920x1080x24"});
}

TEST(ConfigCommandLine, XvfbAndDisplayExcludeEachOther) {
  expect_refusal({"--xvfb", "--display=:1"}, "--xvfb and --display");
}

TEST(ConfigCommandLine, Display) {
  const Config c = accepted({"--display=:7"});
  EXPECT_EQ(c.display, ":7");
  EXPECT_FALSE(c.xvfb.has_value());
}

TEST(ConfigCommandLine, CaptureRegion) {
  EXPECT_EQ(accepted({"--capture-region=1,2,3,4"}).capture_region, (Rect{1, 2, 3, 4}));
}

TEST(ConfigCommandLine, BadCaptureRegionIsRejected) {
  for (const char* bad : {"--capture-region=1,2,3", "--capture-region=1,2,0,4", "--capture-region=a,b,c,d",
                          "--capture-region=1,2,3,4,5"})
    expect_refusal({bad}, "--capture-region", "x,y,w,h");
}

TEST(ConfigCommandLine, CaptureWindowInHexOrDecimal) {
  EXPECT_EQ(accepted({"--capture-window=0x2a"}).capture_window, 42u);
  EXPECT_EQ(accepted({"--capture-window=42"}).capture_window, 42u);
  EXPECT_EQ(accepted({"--capture-window=0xffffffff"}).capture_window, 0xffffffffu);
}

TEST(ConfigCommandLine, BadCaptureWindowIsRejected) {
  for (const char* bad : {"--capture-window=zz", "--capture-window=0", "--capture-window=42abc",
                          "--capture-window=0x100000000", "--capture-window=-1", "--capture-window=0x"})
    expect_refusal({bad}, "--capture-window", "window id");
}

TEST(ConfigCommandLine, RegionAndWindowExcludeEachOther) {
  expect_refusal({"--capture-region=1,2,3,4", "--capture-window=42"}, "--capture-region and --capture-window");
}

TEST(ConfigCommandLine, LogLevelAndStatsInterval) {
  const Config c = accepted({"--log-level=debug", "--stats-seconds=10"});
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.stats_seconds, 10);
  expect_rejected({"--log-level=verbose"});
  expect_rejected({"--stats-seconds=0"});
}

TEST(ConfigCommandLine, WaylandCompositorAndBackend) {
  EXPECT_EQ(accepted({}).backend, BackendName::kAuto);
  EXPECT_FALSE(accepted({}).wayland);
  EXPECT_EQ(accepted({"--wayland"}).wayland, (Size{1920, 1080}));
  EXPECT_EQ(accepted({"--wayland=800x600"}).wayland, (Size{800, 600}));
  // selkies' --wayland is a switch.
  EXPECT_EQ(accepted({"--wayland=true"}).wayland, (Size{1920, 1080}));
  EXPECT_FALSE(accepted({"--wayland=false"}).wayland);
  EXPECT_EQ(accepted({"--backend=WAYLAND"}).backend, BackendName::kWayland);
  EXPECT_EQ(accepted({"--backend", "x11"}).backend, BackendName::kX11);
  EXPECT_EQ(accepted({"--wayland-user=desk"}).wayland_user, "desk");
  EXPECT_EQ(accepted({}).wayland_user, "nobody");
  expect_refusal({"--backend=mir"}, "--backend", "auto, x11, wayland or portal");
  expect_refusal({"--wayland=big"}, "--wayland", "1920x1080");
}

TEST(ConfigCommandLine, WaylandExcludesTheOtherDesktops) {
  expect_refusal({"--wayland", "--xvfb"}, "--wayland", "--xvfb");
  expect_refusal({"--wayland", "--display=:1"}, "--wayland", "--display");
  expect_refusal({"--wayland", "--backend=x11"}, "--wayland and --backend x11");
  expect_refusal({"--xvfb", "--backend=wayland"}, "--xvfb and --backend wayland");
  EXPECT_TRUE(accepted({"--wayland", "--backend=wayland"}).wayland);
}

TEST(ConfigCommandLine, PortalSharesTheDesktopThePortalOffers) {
  EXPECT_EQ(accepted({"--backend=portal"}).backend, BackendName::kPortal);
  expect_refusal({"--backend=portal", "--xvfb"}, "--backend portal", "--xvfb");
  expect_refusal({"--backend=portal", "--wayland"}, "--backend portal", "--wayland");
  expect_refusal({"--backend=portal", "--display=:1"}, "--backend portal", "--display");
  expect_refusal({"--backend=sideways"}, "--backend");
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::app
