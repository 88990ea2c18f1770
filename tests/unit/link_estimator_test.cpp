#include "stream/viewer/link_estimator.h"

#include <gtest/gtest.h>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Time = LinkEstimator::Time;

const Time t0 = Time{} + 1h;

TEST(WindowedExtremum, KeepsTheBestWithinTheWindow) {
  WindowedMax<int> m(100ms);
  EXPECT_FALSE(m.best());
  m.add(5, t0);
  m.add(3, t0 + 10ms);
  EXPECT_EQ(*m.best(), 5);
  m.add(4, t0 + 120ms);  // 5 is now older than the window
  EXPECT_EQ(*m.best(), 4);
  m.expire(t0 + 1s);  // the newest sample stays
  EXPECT_EQ(*m.best(), 4);
  WindowedMin<int> n(100ms);
  n.add(5, t0);
  n.add(3, t0 + 1ms);
  n.add(7, t0 + 2ms);
  EXPECT_EQ(*n.best(), 3);
}

TEST(WindowedExtremum, HoldsAtMostMaxSamples) {
  WindowedMin<int> m(1h, 4);
  for (int i = 0; i < 10; ++i) m.add(i, t0 + std::chrono::milliseconds(i));
  // Increasing values all stay (each may become the minimum); only 4 are kept.
  EXPECT_EQ(*m.best(), 6);
}

TEST(LinkEstimator, RttLeavesOutTheClientsDecodeTime) {
  LinkEstimator e;
  e.on_send(1, 1000, false, t0);
  e.on_ack(1, 5.0, t0 + 45ms);
  ASSERT_TRUE(e.has_samples());
  EXPECT_DOUBLE_EQ(e.min_rtt_ms(), 40.0);
  EXPECT_DOUBLE_EQ(e.srtt_ms(), 40.0);
  e.on_send(2, 1000, false, t0 + 50ms);
  e.on_ack(2, 5.0, t0 + 50ms + 85ms);  // 80 ms: a queue formed
  EXPECT_DOUBLE_EQ(e.min_rtt_ms(), 40.0);
  EXPECT_DOUBLE_EQ(e.srtt_ms(), 45.0);
  EXPECT_DOUBLE_EQ(e.queue_delay_ms(), 5.0);
}

TEST(LinkEstimator, AnAckCoversEveryEarlierFrame) {
  LinkEstimator e;
  for (uint32_t id = 1; id <= 4; ++id) e.on_send(id, 500, false, t0 + std::chrono::milliseconds(id));
  EXPECT_EQ(e.frames_in_flight(), 4u);
  EXPECT_EQ(e.bytes_in_flight(), 2000u);
  e.on_ack(3, 0, t0 + 30ms);
  EXPECT_EQ(e.frames_in_flight(), 1u);
  EXPECT_EQ(e.bytes_in_flight(), 500u);
  e.on_ack(3, 0, t0 + 31ms);  // a duplicate changes nothing
  EXPECT_EQ(e.frames_in_flight(), 1u);
}

TEST(LinkEstimator, IdsWrapAround) {
  LinkEstimator e;
  e.on_send(0xffffffffu, 100, false, t0);
  e.on_send(0, 100, false, t0 + 1ms);
  e.on_send(1, 100, false, t0 + 2ms);
  e.on_ack(0, 0, t0 + 10ms);
  EXPECT_EQ(e.frames_in_flight(), 1u);
}

TEST(LinkEstimator, LostFramesStopCountingAfterTheGiveUp) {
  LinkEstimator e;
  e.on_send(1, 100, false, t0);
  e.on_send(2, 100, false, t0 + 600ms);
  e.expire(t0 + LinkEstimator::kGiveUp + 1ms);
  EXPECT_EQ(e.frames_in_flight(), 1u);
  e.forget_in_flight();
  EXPECT_EQ(e.frames_in_flight(), 0u);
  EXPECT_EQ(e.bytes_in_flight(), 0u);
}

TEST(LinkEstimator, ClientsThatNeverAckAreBounded) {
  LinkEstimator e;
  for (uint32_t id = 1; id <= 100; ++id) e.on_send(id, 10, false, t0);
  EXPECT_EQ(e.frames_in_flight(), LinkEstimator::kMaxFramesInFlight);
  EXPECT_EQ(e.bytes_in_flight(), 10 * LinkEstimator::kMaxFramesInFlight);
}

TEST(LinkEstimator, DeliveryRateOfASaturatedLink) {
  // 12,500-byte frames every 10 ms through a 10 Mbit/s link (10 ms each to
  // serialise) with a 20 ms round trip: each ack comes 30 ms after its send.
  LinkEstimator e;
  const auto at = [](uint32_t id) { return t0 + std::chrono::milliseconds(10 * id); };
  for (uint32_t id = 1; id <= 20; ++id) {
    if (id > 3) e.on_ack(id - 3, 0, at(id));
    e.on_send(id, 12500, false, at(id));
  }
  for (uint32_t id = 18; id <= 20; ++id) e.on_ack(id, 0, at(id) + 30ms);
  EXPECT_NEAR(e.delivery_kbps(), 10000, 100);
  EXPECT_NEAR(e.min_rtt_ms(), 30, 0.01);
}

TEST(LinkEstimator, ApplicationLimitedSamplesOnlyRaiseTheRate) {
  LinkEstimator e;
  for (uint32_t id = 1; id <= 5; ++id) e.on_send(id, 12500, false, t0);
  for (uint32_t id = 1; id <= 5; ++id) e.on_ack(id, 0, t0 + 20ms + std::chrono::milliseconds(10 * id));
  const double measured = e.delivery_kbps();
  // A still screen: tiny frames, far apart.
  for (uint32_t id = 6; id <= 50; ++id) {
    const Time at = t0 + 1s + std::chrono::milliseconds(16 * id);
    e.on_send(id, 200, true, at);
    e.on_ack(id, 0, at + 21ms);
  }
  EXPECT_DOUBLE_EQ(e.delivery_kbps(), measured);
}

TEST(LinkEstimator, WindowCoversOneRoundTripAndTwoFrames) {
  LinkEstimator e;
  EXPECT_EQ(e.frame_window(60), LinkEstimator::kExtraFrames + 1);  // before any ack
  e.on_send(1, 1000, false, t0);
  e.on_ack(1, 0, t0 + 60ms);
  EXPECT_EQ(e.frame_window(60), 4u + LinkEstimator::kExtraFrames);
  LinkEstimator lan;
  lan.on_send(1, 1000, false, t0);
  lan.on_ack(1, 0, t0 + 1ms);
  EXPECT_EQ(lan.frame_window(60), 1u + LinkEstimator::kExtraFrames);
}

TEST(LinkEstimator, BytesBeyondTheBandwidthDelayProductWait) {
  LinkEstimator e;
  // 8 Mbit/s measured with a 10 ms round trip: BDP 10 KB.
  for (uint32_t id = 1; id <= 4; ++id) e.on_send(id, 10000, false, t0);
  for (uint32_t id = 1; id <= 4; ++id) e.on_ack(id, 0, t0 + std::chrono::milliseconds(10 * id));
  EXPECT_NEAR(e.delivery_kbps(), 8000, 500);
  EXPECT_TRUE(e.can_send(60, t0 + 50ms));
  // Budget: ~10 KB of BDP + two 10 KB frames.
  e.on_send(5, 10000, false, t0 + 50ms);
  e.on_send(6, 10000, false, t0 + 50ms);
  EXPECT_TRUE(e.can_send(1000, t0 + 50ms));
  e.on_send(7, 10000, false, t0 + 50ms);
  EXPECT_FALSE(e.can_send(1000, t0 + 50ms));
}

TEST(LinkEstimator, DrainsThePathASecondInThenEveryEightSecondsOfBusyPipe) {
  LinkEstimator e;
  // Frames every 20 ms, each acknowledged 50 ms later: the pipe never empties.
  uint32_t id = 0;
  auto t = t0;
  auto send_and_ack_until = [&](LinkEstimator::Time end) {
    for (; t < end; t += 20ms) {
      if (id >= 3) e.on_ack(id - 2, 0, t);
      if (!e.can_send(60, t)) return false;
      e.on_send(++id, 1000, false, t);
    }
    return true;
  };
  EXPECT_TRUE(send_and_ack_until(t0 + 990ms));
  EXPECT_FALSE(e.drain_due(t0 + 990ms));
  EXPECT_TRUE(e.drain_due(t0 + 1s));
  EXPECT_FALSE(send_and_ack_until(t0 + 2s));  // held back at one second
  const auto held_at = t;
  // Once everything in flight is acknowledged, the next frame leaves.
  e.on_ack(id, 0, held_at + 10ms);
  EXPECT_TRUE(e.can_send(60, held_at + 10ms));
  e.on_send(++id, 1000, false, held_at + 10ms);
  EXPECT_FALSE(e.drain_due(held_at + 8s));
  EXPECT_TRUE(e.drain_due(held_at + 10ms + 8s));
}

TEST(LinkEstimator, AnIdlePipeNeedsNoDrain) {
  LinkEstimator e;
  for (uint32_t id = 1; id <= 20; ++id) {
    const auto t = t0 + id * 500ms;
    EXPECT_TRUE(e.can_send(60, t));
    e.on_send(id, 1000, false, t);
    e.on_ack(id, 0, t + 30ms);
  }
}

}  // namespace
}  // namespace voxl::stream
