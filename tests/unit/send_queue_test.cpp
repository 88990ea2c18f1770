#include "stream/send_queue.h"

#include <gtest/gtest.h>

#include <memory>

namespace voxl::stream {
namespace {

using encode::EncodedFrame;
using encode::EncodedFramePtr;
using Push = SendQueue::Push;

EncodedFramePtr frame(uint32_t id, bool key, size_t bytes) {
  auto f = std::make_shared<EncodedFrame>();
  f->id = id;
  f->key = key;
  f->data.assign(bytes, uint8_t(id));
  return f;
}

EncodedFramePtr key(uint32_t id, size_t bytes = 100) { return frame(id, true, bytes); }
EncodedFramePtr delta(uint32_t id, size_t bytes = 10) { return frame(id, false, bytes); }

TEST(SendQueue, StartsEmptyAndWaitingForAKeyFrame) {
  const SendQueue q(8, 1000);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0u);
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_TRUE(q.waiting_for_key());
  EXPECT_EQ(q.dropped(), 0u);
  EXPECT_EQ(q.peek(), nullptr);
}

TEST(SendQueue, DropsDeltasUntilTheFirstKeyFrame) {
  SendQueue q(8, 1000);
  EXPECT_EQ(q.push(delta(1)), Push::kDropped);
  EXPECT_EQ(q.push(delta(2)), Push::kDropped);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_EQ(q.dropped(), 2u);
  EXPECT_TRUE(q.waiting_for_key());

  EXPECT_EQ(q.push(key(3)), Push::kQueued);
  EXPECT_FALSE(q.waiting_for_key());
  EXPECT_EQ(q.push(delta(4)), Push::kQueued);
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.dropped(), 2u);
}

TEST(SendQueue, KeyFrameReplacesEverythingPending) {
  SendQueue q(8, 1000);
  q.push(key(1, 100));
  q.push(delta(2, 10));
  q.push(delta(3, 10));
  ASSERT_EQ(q.size(), 3u);

  EXPECT_EQ(q.push(key(4, 200)), Push::kQueued);
  EXPECT_EQ(q.size(), 1u);
  EXPECT_EQ(q.bytes(), 200u);
  EXPECT_EQ(q.dropped(), 3u);
  ASSERT_NE(q.peek(), nullptr);
  EXPECT_EQ(q.peek()->id, 4u);
}

TEST(SendQueue, OverflowByFrameCountDropsEverythingAndAsksForAKeyFrame) {
  SendQueue q(3, 1'000'000);
  EXPECT_EQ(q.push(key(1)), Push::kQueued);
  EXPECT_EQ(q.push(delta(2)), Push::kQueued);
  EXPECT_EQ(q.push(delta(3)), Push::kQueued);  // exactly full
  EXPECT_EQ(q.size(), 3u);

  EXPECT_EQ(q.push(delta(4)), Push::kNeedKeyframe);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_EQ(q.peek(), nullptr);
  EXPECT_TRUE(q.waiting_for_key());
  EXPECT_EQ(q.dropped(), 4u);  // the three pending and the one that did not fit

  // Deltas stay useless until the requested key frame comes.
  EXPECT_EQ(q.push(delta(5)), Push::kDropped);
  EXPECT_EQ(q.dropped(), 5u);
  EXPECT_EQ(q.push(key(6)), Push::kQueued);
  EXPECT_EQ(q.push(delta(7)), Push::kQueued);
  EXPECT_EQ(q.size(), 2u);
}

TEST(SendQueue, OverflowByBytesDropsEverythingAndAsksForAKeyFrame) {
  SendQueue q(100, 1000);
  EXPECT_EQ(q.push(key(1, 400)), Push::kQueued);
  EXPECT_EQ(q.push(delta(2, 400)), Push::kQueued);
  EXPECT_EQ(q.push(delta(3, 200)), Push::kQueued);  // exactly 1000 bytes
  EXPECT_EQ(q.bytes(), 1000u);

  EXPECT_EQ(q.push(delta(4, 1)), Push::kNeedKeyframe);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_TRUE(q.waiting_for_key());
  EXPECT_EQ(q.dropped(), 4u);
}

TEST(SendQueue, KeyFrameIsQueuedEvenWhenLargerThanTheByteLimit) {
  // Refusing it would leave the viewer waiting for a key frame forever.
  SendQueue q(4, 1000);
  EXPECT_EQ(q.push(key(1, 5000)), Push::kQueued);
  EXPECT_EQ(q.bytes(), 5000u);
  EXPECT_EQ(q.push(delta(2, 1)), Push::kNeedKeyframe);
  EXPECT_TRUE(q.empty());
}

TEST(SendQueue, PopsInPushOrderAndKeepsByteCount) {
  SendQueue q(8, 10'000);
  q.push(key(1, 300));
  q.push(delta(2, 20));
  q.push(delta(3, 5));
  EXPECT_EQ(q.bytes(), 325u);

  ASSERT_NE(q.peek(), nullptr);
  EXPECT_EQ(q.peek()->id, 1u);
  EXPECT_EQ(q.size(), 3u) << "peek leaves the frame in place";

  auto f = q.pop();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, 1u);
  EXPECT_TRUE(f->key);
  EXPECT_EQ(q.bytes(), 25u);
  EXPECT_EQ(q.peek()->id, 2u);

  EXPECT_EQ(q.pop()->id, 2u);
  EXPECT_EQ(q.bytes(), 5u);
  EXPECT_EQ(q.pop()->id, 3u);
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.pop(), nullptr);
  EXPECT_EQ(q.peek(), nullptr);
  EXPECT_EQ(q.dropped(), 0u);
}

TEST(SendQueue, PoppingMakesRoomAgain) {
  SendQueue q(2, 1000);
  q.push(key(1));
  q.push(delta(2));
  q.pop();
  EXPECT_EQ(q.push(delta(3)), Push::kQueued);
  EXPECT_EQ(q.size(), 2u);
  EXPECT_FALSE(q.waiting_for_key());
}

TEST(SendQueue, DrainedQueueKeepsAcceptingDeltas) {
  // Once in step, an empty queue is not a reason to wait for a key frame.
  SendQueue q(2, 1000);
  q.push(key(1));
  q.pop();
  EXPECT_EQ(q.push(delta(2)), Push::kQueued);
  EXPECT_EQ(q.peek()->id, 2u);
}

TEST(SendQueue, SharesFramesWithoutCopying) {
  SendQueue a(4, 1000), b(4, 1000);
  const EncodedFramePtr f = key(1);
  a.push(f);
  b.push(f);
  EXPECT_EQ(a.peek(), f.get());
  EXPECT_EQ(b.peek(), f.get());
  EXPECT_EQ(f.use_count(), 3);
}

TEST(SendQueue, AResetDecoderGetsNoDeltasUntilTheNextKeyFrame) {
  SendQueue q(4, 1000);
  q.push(key(1));
  q.push(delta(2));
  q.push(delta(3));
  q.drop_until_key();
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.dropped(), 3u);
  EXPECT_EQ(q.push(delta(4)), Push::kDropped);
  EXPECT_EQ(q.push(key(5)), Push::kQueued);
  EXPECT_EQ(q.push(delta(6)), Push::kQueued);
  EXPECT_EQ(q.peek()->id, 5u);
}

}  // namespace
}  // namespace voxl::stream
