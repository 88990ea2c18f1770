#include "platform/x11/virtual_display.h"

#include <gtest/gtest.h>

#include <string>

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

TEST(ParseXvfbShmid, FindsTheScreenZeroLine) {
  EXPECT_EQ(parse_xvfb_shmid("screen 0 shmid 32781\n"), 32781);
  EXPECT_EQ(parse_xvfb_shmid("screen 0 shmid 0\n"), 0);
}

TEST(ParseXvfbShmid, FindsTheLineAmongOtherOutput) {
  const std::string out =
      "_XSERVTransmkdir: ERROR: euid != 0,directory /tmp/.X11-unix will not be created.\n"
      "screen 0 shmid 98317\n"
      "The XKEYBOARD keymap compiler (xkbcomp) reports:\n"
      "> Warning:          Could not resolve keysym XF86CameraAccessEnable\n";
  EXPECT_EQ(parse_xvfb_shmid(out), 98317);
}

TEST(ParseXvfbShmid, NoLineGivesNullopt) {
  EXPECT_FALSE(parse_xvfb_shmid(""));
  EXPECT_FALSE(parse_xvfb_shmid("Xvfb started\nno framebuffer here\n"));
  EXPECT_FALSE(parse_xvfb_shmid("screen 0 shmid \n"));
  EXPECT_FALSE(parse_xvfb_shmid("screen 0 shmid abc\n"));
  EXPECT_FALSE(parse_xvfb_shmid("screen 1 shmid 5\n"));
}

TEST(ParseXvfbShmid, OutOfRangeNumberGivesNulloptWithoutThrowing) {
  std::optional<int> id = 1;
  EXPECT_NO_THROW(id = parse_xvfb_shmid("screen 0 shmid 99999999999\n"));
  EXPECT_FALSE(id);
}

}  // namespace
}  // namespace voxl::platform::x11
