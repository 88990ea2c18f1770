// --adaptive-threads' rule (stream/video/encoder_thread_rule.h) on synthetic
// encode-time traces: simulated time, nothing depends on the machine.
#include "stream/video/encoder_thread_rule.h"

#include <gtest/gtest.h>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = EncoderThreadRule::Clock;

constexpr double kInterval = 1e6 / 60;  // 60 fps

// Feeds `n` motion frames at 60 fps, each taking `one_thread_share` of the
// interval on one thread (divided by the rule's current thread count, as
// slices would), starting at `t`; returns the time after them.
Clock::time_point feed(EncoderThreadRule& rule, int n, double one_thread_share, Clock::time_point t) {
  for (int i = 0; i < n; ++i) {
    rule.on_tick(t);
    rule.on_motion_frame(one_thread_share * kInterval / rule.threads(), kInterval, t);
    t += 16667us;
  }
  return t;
}

const Clock::time_point kStart = Clock::time_point{} + 1h;

TEST(EncoderThreadRule, StaysOnOneThreadWhileEncodingIsCheap) {
  EncoderThreadRule rule(4);
  feed(rule, 600, 0.3, kStart);
  EXPECT_EQ(rule.threads(), 1);
  EXPECT_EQ(rule.switches(), 0);
}

TEST(EncoderThreadRule, SustainedHeavyMotionFansOut) {
  EncoderThreadRule rule(4);
  auto t = feed(rule, EncoderThreadRule::kUpFrames - 1, 0.9, kStart);
  EXPECT_EQ(rule.threads(), 1) << "a few heavy frames are not sustained motion";
  feed(rule, 1, 0.9, t);
  EXPECT_EQ(rule.threads(), 4);
  EXPECT_EQ(rule.switches(), 1);
}

TEST(EncoderThreadRule, ScatteredHeavyFramesDoNotCount) {
  EncoderThreadRule rule(2);
  auto t = kStart;
  for (int i = 0; i < 100; ++i) {
    t = feed(rule, 1, 0.9, t);  // every other frame heavy: 6 of 12 at most
    t = feed(rule, 1, 0.2, t);
  }
  EXPECT_EQ(rule.threads(), 1);
}

TEST(EncoderThreadRule, ComesBackToOneAfterItCalmsDownWithHysteresis) {
  EncoderThreadRule rule(4);
  auto t = feed(rule, 20, 0.9, kStart);
  ASSERT_EQ(rule.threads(), 4);
  // Between the two shares: stays where it is, either way.
  t = feed(rule, 600, 0.4, t);
  EXPECT_EQ(rule.threads(), 4);
  t = feed(rule, EncoderThreadRule::kDownFrames - 1, 0.1, t);
  EXPECT_EQ(rule.threads(), 4) << "one frame short of the run";
  t = feed(rule, 1, 0.1, t);
  EXPECT_EQ(rule.threads(), 1);
  EXPECT_EQ(rule.switches(), 2);
  feed(rule, 600, 0.4, t);
  EXPECT_EQ(rule.threads(), 1);
}

TEST(EncoderThreadRule, OneHeavyFrameBreaksTheCalmRun) {
  EncoderThreadRule rule(2);
  auto t = feed(rule, 20, 0.9, kStart);
  ASSERT_EQ(rule.threads(), 2);
  t = feed(rule, EncoderThreadRule::kDownFrames - 10, 0.1, t);
  t = feed(rule, 1, 0.5, t);
  t = feed(rule, 20, 0.1, t);
  EXPECT_EQ(rule.threads(), 2);
}

TEST(EncoderThreadRule, AStillScreenComesBackToOne) {
  EncoderThreadRule rule(4);
  const auto last = feed(rule, 20, 0.9, kStart) - 16667us;  // the last motion frame
  ASSERT_EQ(rule.threads(), 4);
  rule.on_tick(last + EncoderThreadRule::kQuiet - 1ms);
  EXPECT_EQ(rule.threads(), 4);
  rule.on_tick(last + EncoderThreadRule::kQuiet);
  EXPECT_EQ(rule.threads(), 1);
}

TEST(EncoderThreadRule, TheFramesAfterASwitchAreNotJudged) {
  EncoderThreadRule rule(2);
  auto t = feed(rule, EncoderThreadRule::kUpFrames, 0.9, kStart);
  ASSERT_EQ(rule.threads(), 2);
  // The new encoder's first frames are slow (a key frame, warm-up) but
  // ignored; calm frames then take it down only after a full run.
  for (int i = 0; i < EncoderThreadRule::kSettleFrames; ++i) rule.on_frame();
  t = feed(rule, EncoderThreadRule::kDownFrames, 0.1, t);
  EXPECT_EQ(rule.threads(), 1);
}

TEST(EncoderThreadRule, OneThreadMaximumNeverSwitches) {
  EncoderThreadRule rule(1);
  feed(rule, 600, 2.0, kStart);
  EXPECT_EQ(rule.threads(), 1);
  EXPECT_EQ(rule.switches(), 0);
}

}  // namespace
}  // namespace voxl::stream
