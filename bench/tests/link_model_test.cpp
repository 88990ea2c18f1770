#include "link_model.h"

#include <gtest/gtest.h>

namespace voxl::bench {
namespace {

using namespace std::chrono_literals;
using Time = LinkModel::Time;

TEST(LinkModel, SerialisesAtTheRateThenAddsTheDelay) {
  LinkModel link(8.0, 30ms, 1000ms);  // 8 Mbit/s: one byte per µs
  EXPECT_EQ(link.send_packet(1000, Time(0)), 1000us + 30ms);
  // Back to back: the second waits for the first.
  EXPECT_EQ(link.send_packet(1000, Time(0)), 2000us + 30ms);
  EXPECT_EQ(link.backlog(Time(0)), 2000us);
  // An idle link starts at once.
  EXPECT_EQ(link.send_packet(500, 1s), 1s + 500us + 30ms);
}

TEST(LinkModel, ThroughputOfALongBurstIsTheRate) {
  LinkModel link(5.0, 30ms, 100000ms);
  const size_t bytes = 5'000'000 / 8 * 4;  // four seconds' worth
  Time last{};
  for (size_t sent = 0; sent < bytes; sent += LinkModel::kPacketBytes)
    last = link.send_packet(std::min(LinkModel::kPacketBytes, bytes - sent), Time(0));
  const auto transfer = last - 30ms;
  EXPECT_NEAR(std::chrono::duration<double>(transfer).count(), 4.0, 1e-6);
}

TEST(LinkModel, StopsAcceptingWhenTheQueueIsFull) {
  LinkModel link(8.0, 0ms, 10ms);  // the queue holds 10 ms: 10,000 bytes
  Time t{0};
  int packets = 0;
  while (link.accepting(t)) {
    link.send_packet(1000, t);
    ++packets;
  }
  EXPECT_EQ(packets, 10);
  EXPECT_EQ(link.accepting_at(t), Time(1));  // as soon as one byte has gone
  EXPECT_TRUE(link.accepting(link.accepting_at(t)));
  EXPECT_EQ(link.accepting_at(5ms), 5ms);
}

TEST(LinkModel, NoCapMeansOnlyTheDelay) {
  LinkModel link(0, 20ms, 1000ms);
  EXPECT_EQ(link.send_packet(1448, Time(0)), 20ms);
  EXPECT_EQ(link.send_packet(1448, Time(0)), 20ms);
  EXPECT_TRUE(link.accepting(Time(0)));
}

}  // namespace
}  // namespace voxl::bench
