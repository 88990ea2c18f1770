// --enable-resize through the platform seam: voxl's own Xvfb starts at its
// largest size, is brought to the size asked for before anything captures,
// and the environment's resizer grows it up to that largest size and puts
// back the configured size when it goes.
#include <gtest/gtest.h>

#include "platform/desktop_environment.h"
#include "randr_query.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

platform::DesktopOptions resizable_xvfb(Size size, bool resize) {
  platform::DesktopOptions o;
  o.virtual_display = size;
  o.resize = resize;
  return o;
}

TEST(DesktopResize, OwnXvfbStartsLargestAndShowsTheConfiguredSize) {
  CapturedLog log = make_captured_log();
  auto env = platform::make_desktop_environment(resizable_xvfb({1280, 720}, true), log.log);
  RandrSnapshot s = read_randr(env->display_name());
  EXPECT_EQ(s.screen, (Size{1280, 720}));
  EXPECT_EQ(s.current, "voxl-1280x720");
  EXPECT_EQ(env->make_capturer()->size(), (Size{1280, 720})) << "capture starts at the configured size";
  bool cost_logged = false;
  for (const auto& m : log.messages()) cost_logged |= m.find("31.6 MiB") != std::string::npos;
  EXPECT_TRUE(cost_logged) << "the framebuffer's memory is said";

  std::string why;
  auto resizer = env->make_desktop_resizer(why);
  ASSERT_TRUE(resizer) << why;
  EXPECT_EQ(resizer->max_size(), (Size{3840, 2160}));
  EXPECT_EQ(resizer->current_size(), (Size{1280, 720}));
  std::string error;
  ASSERT_TRUE(resizer->resize({2560, 1440}, error)) << error;
  EXPECT_EQ(read_randr(env->display_name()).screen, (Size{2560, 1440}));
  resizer.reset();
  s = read_randr(env->display_name());
  EXPECT_EQ(s.screen, (Size{1280, 720})) << "the configured size, not the start size, is restored";
  EXPECT_EQ(s.current, "voxl-1280x720");
  EXPECT_EQ(voxl_modes(s), std::vector<std::string>{"voxl-1280x720"});
}

TEST(DesktopResize, LargerXvfbSizeWins) {
  CapturedLog log = make_captured_log();
  auto env = platform::make_desktop_environment(resizable_xvfb({4096, 1024}, true), log.log);
  EXPECT_EQ(read_randr(env->display_name()).screen, (Size{4096, 1024}));
  std::string why;
  auto resizer = env->make_desktop_resizer(why);
  ASSERT_TRUE(resizer) << why;
  EXPECT_EQ(resizer->max_size(), (Size{4096, 2160}));
}

TEST(DesktopResize, WithoutTheFlagXvfbStartsAtItsSize) {
  CapturedLog log = make_captured_log();
  auto env = platform::make_desktop_environment(resizable_xvfb({800, 600}, false), log.log);
  const RandrSnapshot s = read_randr(env->display_name());
  EXPECT_EQ(s.screen, (Size{800, 600}));
  EXPECT_TRUE(voxl_modes(s).empty());
  std::string why;
  auto resizer = env->make_desktop_resizer(why);
  ASSERT_TRUE(resizer) << why;
  EXPECT_EQ(resizer->max_size(), (Size{800, 600})) << "Xvfb cannot grow past its start size";
}

}  // namespace
}  // namespace voxl::testing
