#include "loss_model.h"

#include <gtest/gtest.h>

namespace voxl::bench {
namespace {

struct Runs {
  double rate = 0;
  double mean_burst = 0;
};

// The loss rate and the mean length of runs of losses over `n` packets.
Runs measure(LossModel& m, int n) {
  int lost = 0, bursts = 0;
  bool in_burst = false;
  for (int i = 0; i < n; ++i) {
    const bool l = m.lose();
    lost += l;
    if (l && !in_burst) ++bursts;
    in_burst = l;
  }
  return {double(lost) / n, bursts ? double(lost) / bursts : 0};
}

TEST(LossModel, NoLossLosesNothing) {
  LossModel m(0, 5, 1);
  EXPECT_EQ(measure(m, 100000).rate, 0);
}

TEST(LossModel, IndependentLossHasItsRateAndShortBursts) {
  LossModel m(0.02, 1, 7);
  const Runs r = measure(m, 1'000'000);
  EXPECT_NEAR(r.rate, 0.02, 0.001);
  EXPECT_NEAR(r.mean_burst, 1 / (1 - 0.02), 0.01);
}

TEST(LossModel, BurstyLossHasItsRateAndItsMeanBurst) {
  for (double burst : {2.0, 3.0, 8.0}) {
    LossModel m(0.01, burst, 11);
    const Runs r = measure(m, 2'000'000);
    EXPECT_NEAR(r.rate, 0.01, 0.0015) << burst;
    EXPECT_NEAR(r.mean_burst, burst, burst * 0.08) << burst;
  }
}

TEST(LossModel, TheSameSeedLosesTheSamePackets) {
  LossModel a(0.05, 3, 42), b(0.05, 3, 42), c(0.05, 3, 43);
  int same = 0, differ = 0;
  for (int i = 0; i < 10000; ++i) {
    const bool x = a.lose(), y = b.lose(), z = c.lose();
    same += x == y;
    differ += x != z;
  }
  EXPECT_EQ(same, 10000);
  EXPECT_GT(differ, 0);
}

}  // namespace
}  // namespace voxl::bench
