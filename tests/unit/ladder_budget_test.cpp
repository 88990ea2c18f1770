#include "stream/video/ladder_budget.h"

#include <gtest/gtest.h>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = LadderBudget::Clock;
constexpr double kInterval = 16667;  // 60 fps

// Feeds `frames` pictures 16.7 ms apart from `t`, each coding `rungs` rungs
// with `work_us`; returns the time after the last.
Clock::time_point feed(LadderBudget& b, Clock::time_point t, int frames, int rungs, double work_us) {
  for (int i = 0; i < frames; ++i, t += 16667us) b.on_picture(rungs, work_us, kInterval, t);
  return t;
}

TEST(LadderBudget, StartsWithEveryRungAllowed) {
  LadderBudget b(3);
  EXPECT_EQ(b.rungs(), 3);
  EXPECT_EQ(b.max_rungs(), 3);
  EXPECT_EQ(LadderBudget(0).rungs(), 1) << "at least one";
}

TEST(LadderBudget, ShrinksOnlyAfterASecondOverTheInterval) {
  LadderBudget b(2);
  Clock::time_point t{std::chrono::hours(1)};
  t = feed(b, t, 50, 2, 0.95 * kInterval);  // 0.83 s
  EXPECT_EQ(b.rungs(), 2) << "not yet a second";
  t = feed(b, t, 20, 2, 0.95 * kInterval);
  EXPECT_EQ(b.rungs(), 1);
  EXPECT_EQ(b.shrinks(), 1);
}

TEST(LadderBudget, ABriefSpikeDoesNotShrinkIt) {
  LadderBudget b(2);
  Clock::time_point t{std::chrono::hours(1)};
  for (int round = 0; round < 10; ++round) {
    t = feed(b, t, 30, 2, 1.2 * kInterval);  // half a second over
    t = feed(b, t, 30, 2, 0.3 * kInterval);  // then well under
  }
  EXPECT_EQ(b.rungs(), 2);
}

TEST(LadderBudget, OneRungPicturesNeverShrinkIt) {
  LadderBudget b(2);
  Clock::time_point t{std::chrono::hours(1)};
  feed(b, t, 300, 1, 2.0 * kInterval);  // one encode that does not fit: fewer rungs would not help
  EXPECT_EQ(b.rungs(), 2);
}

TEST(LadderBudget, GrowsBackAfterTheHoldWhenTheEstimateFits) {
  LadderBudget b(2);
  Clock::time_point t{std::chrono::hours(1)};
  t = feed(b, t, 120, 2, 0.95 * kInterval);
  ASSERT_EQ(b.rungs(), 1);
  // One rung now at 20% of the interval: two would be about 40%, under 60%.
  t = feed(b, t, 60 * 9, 1, 0.2 * kInterval);
  EXPECT_EQ(b.rungs(), 1) << "held for kRegrowHold";
  t = feed(b, t, 60 * 5, 1, 0.2 * kInterval);
  EXPECT_EQ(b.rungs(), 2);
}

TEST(LadderBudget, DoesNotGrowWhileTheEstimateWouldNotFit) {
  LadderBudget b(2);
  Clock::time_point t{std::chrono::hours(1)};
  t = feed(b, t, 120, 2, 0.95 * kInterval);
  ASSERT_EQ(b.rungs(), 1);
  feed(b, t, 60 * 30, 1, 0.4 * kInterval);  // two would be 80%
  EXPECT_EQ(b.rungs(), 1);
}

}  // namespace
}  // namespace voxl::stream
