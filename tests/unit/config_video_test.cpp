// The video flags: the frame rate and its range, and how the rate is traded
// against sharpness on a slow link (--motion).
#include <gtest/gtest.h>

#include "config_parse.h"

namespace voxl::app {
namespace VOXL_TEST_FILE {

using config_testing::accepted;
using config_testing::expect_refusal;

// ---------------------------------------------------------------- framerate

TEST(ConfigCommandLine, Framerate) {
  const Config c = accepted({"--framerate=30"});
  EXPECT_EQ(c.framerate, 30);
  EXPECT_EQ(c.framerate_min, 30);
  EXPECT_EQ(accepted({"--framerate", "240"}).framerate, 240);
}

TEST(ConfigCommandLine, FramerateRanges) {
  const Config locked = accepted({"--framerate=60-60"});
  EXPECT_EQ(locked.framerate, 60);
  EXPECT_EQ(locked.framerate_min, 60);

  const Config range = accepted({"--framerate=10-50"});
  EXPECT_EQ(range.framerate, 50);
  EXPECT_EQ(range.framerate_min, 10);

  // selkies' "start,range" form: the start is the ceiling voxl runs at.
  const Config start = accepted({"--framerate=30,10-50"});
  EXPECT_EQ(start.framerate, 30);
  EXPECT_EQ(start.framerate_min, 10);
}

TEST(ConfigCommandLine, FramerateOutOfRangeIsRejected) {
  for (const char* bad : {"--framerate=0", "--framerate=241", "--framerate=-5", "--framerate=fast",
                          "--framerate=50-10", "--framerate=0-60", "--framerate=10-241", "--framerate=10-",
                          "--framerate=60,10-50", "--framerate=", "--framerate=1-2-3"})
    expect_refusal({bad}, "--framerate", "1 to 240");
}

// ------------------------------------------------------------------- motion

TEST(ConfigCommandLine, MotionIsAutoUnlessChosen) {
  EXPECT_EQ(accepted({}).motion, stream::Motion::kAuto);
  EXPECT_EQ(accepted({"--motion=smooth"}).motion, stream::Motion::kSmooth);
  EXPECT_EQ(accepted({"--motion", "sharp"}).motion, stream::Motion::kSharp);
  EXPECT_EQ(accepted({"--motion=auto"}).motion, stream::Motion::kAuto);
}

TEST(ConfigCommandLine, AnUnknownMotionIsRefusedWithTheChoices) {
  for (const char* bad : {"--motion=fast", "--motion=", "--motion=Smooth"})
    expect_refusal({bad}, "--motion", "auto, smooth or sharp");
}

}  // namespace
}  // namespace voxl::app
