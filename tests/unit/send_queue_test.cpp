#include "stream/viewer/send_queue.h"

#include <gtest/gtest.h>

#include <memory>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

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

EncodedFramePtr part(uint32_t id, bool is_key, int stripe, int stripes, bool last, size_t bytes = 10) {
  auto f = std::make_shared<EncodedFrame>();
  f->id = id;
  f->key = is_key;
  f->stripe = stripe;
  f->stripes = stripes;
  f->last_part = last;
  f->data.assign(bytes, uint8_t(id));
  return f;
}

TEST(SendQueue, AStripedKeyFrameKeepsEveryStripesKeyFrame) {
  SendQueue q(2, 1000);
  EXPECT_EQ(q.push(part(1, true, 0, 3, false)), Push::kQueued);
  EXPECT_EQ(q.push(part(2, true, 1, 3, false)), Push::kQueued) << "stripe 1's key frame does not replace stripe 0's";
  EXPECT_EQ(q.push(part(3, true, 2, 3, true)), Push::kQueued);
  EXPECT_EQ(q.size(), 3u);
  EXPECT_FALSE(q.waiting_for_key());
}

TEST(SendQueue, AStripedPictureCountsOnceAgainstTheBound) {
  SendQueue q(2, 1000);
  q.push(part(1, true, 0, 4, false));
  q.push(part(2, true, 1, 4, false));
  q.push(part(3, true, 2, 4, false));
  q.push(part(4, true, 3, 4, true));
  EXPECT_EQ(q.push(part(5, false, 1, 4, false)), Push::kQueued);
  EXPECT_EQ(q.push(part(6, false, 2, 4, true)), Push::kQueued) << "two pictures of six frames";
  EXPECT_EQ(q.push(part(7, false, 0, 4, true)), Push::kNeedKeyframe) << "a third picture is past the bound";
  EXPECT_TRUE(q.waiting_for_key());
  EXPECT_EQ(q.push(part(8, true, 1, 4, false)), Push::kDropped) << "only stripe 0's key frame starts them again";
  EXPECT_EQ(q.push(part(9, true, 0, 4, false)), Push::kQueued);
  // A new start: two pictures fit again, a third does not.
  q.push(part(10, true, 1, 4, true));
  q.push(part(11, false, 0, 4, true));
  EXPECT_EQ(q.push(part(12, false, 0, 4, true)), Push::kNeedKeyframe);
}

}  // namespace
}  // namespace voxl::stream