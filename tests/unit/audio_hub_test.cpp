#include "stream/fanout/audio_hub.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "stream/viewer/audio_queue.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

audio::AudioPacketPtr packet(uint32_t seq) {
  auto p = std::make_shared<audio::AudioPacket>();
  p->sequence = seq;
  return p;
}

struct Sink : AudioSink {
  std::vector<uint32_t> got;
  std::function<void()> after;
  void on_audio(const audio::AudioPacketPtr& p) override {
    got.push_back(p->sequence);
    if (after) after();
  }
};

TEST(AudioHub, CapturesOnlyWhileSomeoneListens) {
  std::vector<bool> calls;
  AudioHub hub([&](bool on) { calls.push_back(on); });
  Sink a, b;
  hub.add(&a);
  hub.add(&b);
  hub.add(&a);  // twice is once
  EXPECT_EQ(hub.sinks(), 2u);
  hub.remove(&a);
  hub.remove(&a);
  hub.remove(&b);
  EXPECT_EQ(calls, (std::vector<bool>{true, false}));
  hub.add(&b);
  EXPECT_EQ(calls, (std::vector<bool>{true, false, true}));
  hub.remove(&b);
}

TEST(AudioHub, EveryListenerGetsEveryPacketEvenIfOneLeavesMidway) {
  AudioHub hub(nullptr);
  Sink a, b, c;
  hub.add(&a);
  hub.add(&b);
  hub.add(&c);
  a.after = [&] { hub.remove(&b); };  // b's socket failed while a was fed
  hub.publish(packet(1));
  hub.publish(packet(2));
  EXPECT_EQ(a.got, (std::vector<uint32_t>{1, 2}));
  EXPECT_TRUE(b.got.empty());
  EXPECT_EQ(c.got, (std::vector<uint32_t>{1, 2}));
  hub.remove(&a);
  hub.remove(&c);
}

TEST(AudioQueue, DropsTheOldestPastItsBound) {
  AudioQueue q(3);
  EXPECT_EQ(q.pop(), nullptr);
  for (uint32_t i = 1; i <= 5; ++i) q.push(packet(i));
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.dropped(), 2u);
  for (uint32_t want : {3u, 4u, 5u}) {
    const auto p = q.pop();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->sequence, want);
  }
  EXPECT_TRUE(q.empty());
}

TEST(AudioQueue, ZeroBoundKeepsNothing) {
  AudioQueue q(0);
  q.push(packet(1));
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.dropped(), 1u);
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

// A listener that throws is dropped; the others still hear the packet.
TEST(AudioHub, AListenerThatThrowsIsDroppedAndTheOthersStillHear) {
  AudioHub hub([](bool) {});
  Sink a, bad, c;
  bad.after = [] { throw std::runtime_error("boom"); };
  hub.add(&a);
  hub.add(&bad);
  hub.add(&c);
  EXPECT_NO_THROW(hub.publish(packet(1)));
  EXPECT_EQ(a.got, (std::vector<uint32_t>{1}));
  EXPECT_EQ(c.got, (std::vector<uint32_t>{1}));
  EXPECT_EQ(hub.sinks(), 2u);
  hub.publish(packet(2));
  EXPECT_EQ(bad.got, (std::vector<uint32_t>{1}));
}

}  // namespace
}  // namespace voxl::stream
