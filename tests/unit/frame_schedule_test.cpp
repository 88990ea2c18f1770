#include "stream/video/frame_schedule.h"

#include <gtest/gtest.h>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = FrameSchedule::Clock;
using GapBudget = encode::VideoEncoder::GapBudget;

const Clock::time_point t0 = Clock::time_point() + 1000s;

TEST(FrameSchedule, NothingIsDueBeforeTheFirstPicture) {
  FrameSchedule s(3, 150ms);
  EXPECT_FALSE(s.have_picture());
  EXPECT_FALSE(s.paintover_due());
  EXPECT_EQ(s.damage_wait(t0, std::nullopt, 500ms), 500ms) << "the longest wait";
  EXPECT_FALSE(s.paintover_now(t0 + 10s, std::nullopt, false));
}

TEST(FrameSchedule, ABurstFollowsTheStillnessAfterAChange) {
  FrameSchedule s(3, 150ms);
  s.on_change(t0);
  ASSERT_TRUE(s.paintover_due());
  EXPECT_EQ(*s.paintover_due(), t0 + 150ms);
  EXPECT_EQ(s.damage_wait(t0 + 40ms, std::nullopt, 500ms), 110ms);
  EXPECT_FALSE(s.paintover_now(t0 + 149ms, std::nullopt, false)) << "not still long enough";
  EXPECT_EQ(s.gap_budget(), GapBudget::kNone) << "a change's own frame";

  EXPECT_TRUE(s.paintover_now(t0 + 150ms, std::nullopt, false));
  EXPECT_EQ(s.gap_budget(), GapBudget::kBank) << "the first banks the stillness";
  EXPECT_TRUE(s.paintover_now(t0 + 160ms, std::nullopt, false));
  EXPECT_EQ(s.gap_budget(), GapBudget::kSpend) << "the second spends it";
  EXPECT_TRUE(s.paintover_now(t0 + 170ms, std::nullopt, false));
  EXPECT_EQ(s.gap_budget(), GapBudget::kNone);
  EXPECT_EQ(s.burst_left(), 0);
  EXPECT_FALSE(s.paintover_now(t0 + 10s, std::nullopt, false)) << "the burst is bounded";
  EXPECT_EQ(s.damage_wait(t0 + 10s, std::nullopt, 500ms), 500ms);
}

TEST(FrameSchedule, AOneFrameBurstDoesNotBankForAFrameThatNeverComes) {
  FrameSchedule s(1, 100ms);
  s.on_change(t0);
  EXPECT_TRUE(s.paintover_now(t0 + 100ms, std::nullopt, false));
  EXPECT_EQ(s.gap_budget(), GapBudget::kNone);
}

TEST(FrameSchedule, AChangeStartsTheBurstAgain) {
  FrameSchedule s(3, 150ms);
  s.on_change(t0);
  EXPECT_TRUE(s.paintover_now(t0 + 200ms, std::nullopt, false));
  s.on_change(t0 + 300ms);
  EXPECT_EQ(s.burst_left(), 3);
  EXPECT_EQ(s.gap_budget(), GapBudget::kNone);
  EXPECT_EQ(*s.paintover_due(), t0 + 450ms);
}

TEST(FrameSchedule, APausedStreamWaitsWithItsPaintover) {
  FrameSchedule s(2, 150ms);
  s.on_change(t0);
  EXPECT_FALSE(s.paintover_now(t0 + 200ms, std::nullopt, true));
  EXPECT_EQ(s.burst_left(), 2) << "nothing was used up while paused";
  EXPECT_TRUE(s.paintover_now(t0 + 900ms, std::nullopt, false));
}

TEST(FrameSchedule, ASettledPaintoverEndsTheBurst) {
  FrameSchedule s(3, 150ms);
  s.on_change(t0);
  EXPECT_TRUE(s.paintover_now(t0 + 150ms, std::nullopt, false));
  s.end_burst();
  EXPECT_FALSE(s.paintover_due());
  EXPECT_FALSE(s.paintover_now(t0 + 1s, std::nullopt, false));
}

TEST(FrameSchedule, TheSwitchToFullChromaIsAPaintoverOfItsOwn) {
  FrameSchedule s(3, 150ms);
  s.on_change(t0);
  s.end_burst();
  const auto switch_at = t0 + 2s;
  EXPECT_EQ(s.damage_wait(t0 + 1500ms, switch_at, 5000ms), 500ms) << "wakes for the switch";
  EXPECT_FALSE(s.paintover_now(t0 + 1900ms, switch_at, false));
  EXPECT_TRUE(s.paintover_now(switch_at, switch_at, false));
  // Its key frame is refined by a longer burst.
  s.extend_burst(60);
  EXPECT_EQ(s.burst_left(), 59);
  EXPECT_EQ(s.gap_budget(), GapBudget::kBank);
}

TEST(FrameSchedule, WithoutPaintoverOnlyTheSwitchCodesAStillScreen) {
  FrameSchedule s(0, 150ms);
  s.on_change(t0);
  EXPECT_FALSE(s.paintover_due());
  EXPECT_FALSE(s.paintover_now(t0 + 10s, std::nullopt, false));
  EXPECT_TRUE(s.paintover_now(t0 + 10s, t0 + 5s, false));
  s.extend_burst(60);
  EXPECT_EQ(s.burst_left(), 0) << "no burst when paintover is off";
}

TEST(FrameSchedule, AWaitIsNeverNegative) {
  FrameSchedule s(3, 150ms);
  s.on_change(t0);
  EXPECT_EQ(s.damage_wait(t0 + 5s, std::nullopt, 500ms), 0ms);
  EXPECT_EQ(s.damage_wait(t0, t0 - 1s, 500ms), 0ms);
}

}  // namespace
}  // namespace voxl::stream
