// The motion choice: its names, how viewers' choices combine, the judge of
// moving content on synthetic capture traces, and the governor holding the
// full rate while smooth.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "stream/video/frame_rate_governor.h"
#include "stream/video/motion_choice.h"
#include "stream/video/motion_judge.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = MotionJudge::Clock;
using Choices = std::vector<std::optional<Motion>>;

const Clock::time_point t0 = Clock::time_point{} + 1h;
constexpr auto kFrame = 16ms;

TEST(MotionChoice, NamesGoBothWays) {
  for (const Motion m : {Motion::kAuto, Motion::kSmooth, Motion::kSharp})
    EXPECT_EQ(parse_motion(motion_name(m)), m) << motion_name(m);
  for (const char* bad : {"", "Smooth", "smooth ", "fast", "autos"}) EXPECT_EQ(parse_motion(bad), std::nullopt) << bad;
}

TEST(MotionChoice, ViewersThatAgreeDecideAndDisagreementLeavesTheServers) {
  EXPECT_EQ(combined_motion(Choices{}, Motion::kSharp), Motion::kSharp) << "nobody: the server's";
  EXPECT_EQ(combined_motion(Choices{std::nullopt, std::nullopt}, Motion::kAuto), Motion::kAuto);
  EXPECT_EQ(combined_motion(Choices{Motion::kSmooth}, Motion::kAuto), Motion::kSmooth);
  EXPECT_EQ(combined_motion(Choices{std::nullopt, Motion::kSharp, Motion::kSharp}, Motion::kAuto), Motion::kSharp)
      << "a viewer without a choice takes what the others chose";
  EXPECT_EQ(combined_motion(Choices{Motion::kSmooth, Motion::kSharp}, Motion::kAuto), Motion::kAuto)
      << "no viewer's choice overrides another's";
}

// Captures every `every` from `from` for `length`, each changing `share`;
// the time after the last.
Clock::time_point changes(MotionJudge& j, Clock::time_point from, Clock::duration length, double share,
                          Clock::duration every = kFrame) {
  auto t = from;
  for (; t < from + length; t += every) j.on_change(t, share, kFrame);
  return t;
}

TEST(MotionJudge, AVideoPlayingIsMotionOnceItHasRunLongEnough) {
  MotionJudge j;
  auto t = changes(j, t0, 1s, 0.3);
  EXPECT_FALSE(j.moving(t)) << "a second of motion could be a window dragged";
  t = changes(j, t, 1s, 0.3);
  EXPECT_TRUE(j.moving(t));
  // A 24 fps video captured at 60: every other or third capture changes.
  MotionJudge film;
  t = changes(film, t0, 2s, 0.12, 42ms);
  EXPECT_TRUE(film.moving(t));
}

TEST(MotionJudge, SmallOrBriefChangesAreNotMotion) {
  MotionJudge typing;
  auto t = changes(typing, t0, 5s, 0.002);
  EXPECT_FALSE(typing.moving(t)) << "text typed for five seconds";
  MotionJudge bursts;
  t = t0;
  // A menu or a page every half second: large, but never continuous.
  for (int i = 0; i < 10; ++i) t = changes(bursts, t, 100ms, 0.5) + 400ms;
  EXPECT_FALSE(bursts.moving(t));
}

TEST(MotionJudge, MotionEndsAfterASecondOfStillnessAndShortPausesDoNotEndIt) {
  MotionJudge j;
  auto t = changes(j, t0, 2s, 0.5);
  ASSERT_TRUE(j.moving(t));
  t = changes(j, t + 600ms, 200ms, 0.5);  // the video paused for a moment
  EXPECT_TRUE(j.moving(t));
  EXPECT_TRUE(j.moving(t + 900ms));
  EXPECT_FALSE(j.moving(t + 1100ms)) << "still for over a second";
  // Moving again: a new streak is needed.
  t = changes(j, t + 1100ms, 1s, 0.5);
  EXPECT_FALSE(j.moving(t));
  t = changes(j, t, 600ms, 0.5);
  EXPECT_TRUE(j.moving(t));
}

TEST(MotionJudge, TheGapFollowsThePacersInterval) {
  // At 5 frames a second every capture is 200 ms after the last: still a streak.
  MotionJudge j;
  auto t = t0;
  for (; t < t0 + 2s; t += 250ms) j.on_change(t, 1.0, 250ms);
  EXPECT_TRUE(j.moving(t - 250ms));
}

TEST(MotionJudge, DamageShareCountsTheRectanglesOverThePicture) {
  const std::vector<Rect> rects{{0, 0, 100, 100}, {200, 0, 100, 100}};
  EXPECT_DOUBLE_EQ(damage_share(rects, {1000, 100}), 0.2);
  EXPECT_DOUBLE_EQ(damage_share(rects, {100, 100}), 1.0) << "at most the whole";
  EXPECT_DOUBLE_EQ(damage_share(rects, {0, 0}), 0.0);
  EXPECT_DOUBLE_EQ(damage_share({}, {100, 100}), 0.0);
}

TEST(FrameRateGovernor, SmoothHoldsTheFullRateAndSharpTradesAgain) {
  FrameRateGovernor g(10, 60);
  g.set_smooth(true);
  auto t = t0;
  // The cap costs 12 rate-factor steps a frame: sharp would lower the rate.
  for (int i = 0; i < 300; ++i, t += kFrame) g.on_motion_frame(36, 24, t);
  EXPECT_EQ(g.fps(), 60);
  EXPECT_GT(g.excess(), FrameRateGovernor::kCeiling) << "the excess is still followed";
  g.set_smooth(false);
  for (int i = 0; i < 300; ++i, t += kFrame) g.on_motion_frame(36, 24, t);
  EXPECT_LT(g.fps(), 40);
  // Smooth again: back to the full rate at once, under any ceiling.
  g.set_ceiling(50);
  g.set_smooth(true);
  EXPECT_EQ(g.fps(), 50);
  g.set_ceiling(60);
  EXPECT_EQ(g.fps(), 60);
}

}  // namespace
}  // namespace voxl::stream
