#include "path_model.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace voxl::bench {
namespace {

using namespace std::chrono_literals;
using Time = PathModel::Time;
using Fate = PathModel::Fate;

PathSettings clean(double mbps, Time delay, size_t queue_bytes = 1 << 20) {
  PathSettings s;
  s.mbps = mbps;
  s.delay = delay;
  s.queue_bytes = queue_bytes;
  return s;
}

TEST(PathModel, SerialisesAtTheRateThenAddsTheDelay) {
  PathModel p(clean(8, 20ms), Time(0));  // 8 Mbit/s: a byte a microsecond
  EXPECT_EQ(p.offer(1000, Time(0)).deliver_at, 1000us + 20ms);
  EXPECT_EQ(p.offer(1000, Time(0)).deliver_at, 2000us + 20ms);
  EXPECT_EQ(p.queued_bytes(Time(0)), 2000u);
  EXPECT_EQ(p.queued_bytes(1500us), 1000u);
  EXPECT_EQ(p.offer(500, 1s).deliver_at, 1s + 500us + 20ms);
  PathModel uncapped(clean(0, 5ms), Time(0));
  EXPECT_EQ(uncapped.offer(1500, 3ms).deliver_at, 8ms);
}

TEST(PathModel, AFullQueueDropsTheTailAndTheRestStillFlows) {
  PathModel p(clean(8, 0ms, 10'000), Time(0));
  int delivered = 0, full = 0;
  for (int i = 0; i < 20; ++i) {
    const auto v = p.offer(1000, Time(0));
    delivered += v.fate == Fate::kDelivered;
    full += v.fate == Fate::kQueueFull;
  }
  EXPECT_EQ(delivered, 10);
  EXPECT_EQ(full, 10);
  EXPECT_EQ(p.counts().queue_full, 10u);
  // Once the bottleneck has sent one, there is room for one.
  EXPECT_EQ(p.offer(1000, 1000us).fate, Fate::kDelivered);
  EXPECT_EQ(p.offer(1000, 1000us).fate, Fate::kQueueFull);
}

TEST(PathModel, LossesFollowTheLossModelAndTakeTheirShareOfTheLink) {
  PathSettings s = clean(8, 10ms);
  s.loss = 0.1;
  s.seed = 5;
  PathModel p(s, Time(0));
  LossModel same(0.1, 1, 5);
  Time t{0};
  for (int i = 0; i < 5000; ++i, t += 2ms) {
    const auto v = p.offer(1000, t);
    EXPECT_EQ(v.fate == Fate::kLost, same.lose()) << i;
    if (v.fate == Fate::kDelivered) {
      EXPECT_EQ(v.deliver_at, t + 1000us + 10ms);
    }
  }
  EXPECT_EQ(p.counts().lost + p.counts().delivered, 5000u);
}

TEST(PathModel, JitterStaysInItsRangeAndKeepsOrderUnlessReorderingIsOn) {
  for (bool reorder : {false, true}) {
    PathSettings s = clean(0, 30ms);
    s.jitter = 20ms;
    s.reorder = reorder;
    PathModel p(s, Time(0));
    Time last{0}, lowest = 1h, highest{0};
    int overtaken = 0;
    for (int i = 0; i < 2000; ++i) {
      const Time sent = Time(i * 1ms);
      const Time at = p.offer(200, sent).deliver_at;
      const Time delay = at - sent;
      lowest = std::min(lowest, delay);
      highest = std::max(highest, delay);
      overtaken += at < last;
      last = std::max(last, at);
    }
    EXPECT_GE(lowest, 30ms) << reorder;
    if (reorder) {
      EXPECT_LE(highest, 50ms);
      EXPECT_GT(overtaken, 100) << "1 ms apart with 20 ms of jitter: many overtake";
    } else {
      EXPECT_EQ(overtaken, 0);
      EXPECT_GT(highest, 45ms);
    }
  }
}

TEST(PathModel, TheScheduleChangesTheRateAtItsTimes) {
  PathSettings s = clean(8, 0ms);
  s.schedule = {{10s, 0.8}, {20s, 8}};
  PathModel p(s, Time(100s));  // the schedule counts from the start
  EXPECT_EQ(p.mbps_at(105s), 8);
  EXPECT_EQ(p.mbps_at(110s), 0.8);
  EXPECT_EQ(p.mbps_at(125s), 8);
  EXPECT_EQ(p.offer(1000, 105s).deliver_at, 105s + 1ms);
  EXPECT_EQ(p.offer(1000, 111s).deliver_at, 111s + 10ms);
  EXPECT_EQ(p.offer(1000, 121s).deliver_at, 121s + 1ms);
}

}  // namespace
}  // namespace voxl::bench
