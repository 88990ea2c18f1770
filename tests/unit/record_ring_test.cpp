// The stream kept for retroactive recordings: it starts at a key frame,
// its bounds in time and bytes drop whole groups of pictures, and a clip
// begins at the right key frame (and after a size change, at the new
// size's first).
#include "endpoints/record_ring.h"

#include <gtest/gtest.h>

#include <memory>

namespace voxl::endpoints {
namespace {

using namespace std::chrono_literals;
using Clock = RecordRing::Clock;

const Clock::time_point t0 = Clock::time_point() + 1000s;

encode::EncodedFramePtr frame(int ms, bool key, size_t bytes = 100, Size size = {64, 48}) {
  auto f = std::make_shared<encode::EncodedFrame>();
  f->data.assign(bytes, 0);
  f->key = key;
  f->captured_at = t0 + std::chrono::milliseconds(ms);
  f->size = size;
  return f;
}

// Frames every 100 ms, a key frame every second, from `from_ms` to `to_ms`.
void feed(RecordRing& r, int from_ms, int to_ms, size_t bytes = 100, Size size = {64, 48}) {
  for (int ms = from_ms; ms < to_ms; ms += 100) r.push(frame(ms, ms % 1000 == 0, bytes, size));
}

TEST(RecordRing, StartsAtAKeyFrame) {
  RecordRing r(10s, 1 << 20);
  r.push(frame(0, false));
  r.push(frame(100, false));
  EXPECT_EQ(r.frames(), 0u) << "nothing before the first key frame";
  EXPECT_TRUE(r.clip(t0).empty());
  EXPECT_TRUE(r.needs_key(t0, 2s));
  r.push(frame(200, true));
  r.push(frame(300, false));
  EXPECT_EQ(r.frames(), 2u);
  EXPECT_FALSE(r.needs_key(t0 + 1s, 2s));
  EXPECT_TRUE(r.needs_key(t0 + 2200ms, 2s));
}

TEST(RecordRing, TheAgeBoundDropsWholeGroupsAndKeepsTheSpan) {
  RecordRing r(3s, 1 << 30);
  feed(r, 0, 10000);
  // The first group still held starts at most 3 s + a group before the newest.
  const auto clip = r.clip(t0);
  ASSERT_FALSE(clip.empty());
  EXPECT_TRUE(clip.front()->key);
  EXPECT_GE(r.held(), 3000ms);
  EXPECT_LT(r.held(), 4000ms + 1ms);
  EXPECT_EQ(r.frames(), size_t(r.held().count() / 100 + 1));
  EXPECT_EQ(r.bytes(), r.frames() * 100);
}

TEST(RecordRing, TheByteBoundDropsWholeGroups) {
  RecordRing r(600s, 2500);  // 25 frames of 100 bytes: two groups of ten, and part of a third
  feed(r, 0, 5000);
  EXPECT_LE(r.bytes(), 2500u);
  ASSERT_GT(r.frames(), 0u);
  EXPECT_TRUE(r.clip(t0).front()->key);
  EXPECT_EQ(r.clip(t0).front()->captured_at, t0 + 3000ms) << "groups from 3 s and 4 s remain";
  // A single group larger than the cap empties the ring until the next key.
  RecordRing small(600s, 500);
  feed(small, 0, 900);
  EXPECT_EQ(small.frames(), 0u);
  small.push(frame(1000, true));
  EXPECT_EQ(small.frames(), 1u);
}

TEST(RecordRing, AClipStartsAtTheKeyFrameAtOrBeforeItsStart) {
  RecordRing r(60s, 1 << 30);
  feed(r, 0, 5000);
  auto c = r.clip(t0 + 2500ms);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front()->captured_at, t0 + 2000ms);
  EXPECT_EQ(c.back()->captured_at, t0 + 4900ms);
  EXPECT_EQ(r.clip(t0 + 2000ms).front()->captured_at, t0 + 2000ms);
  EXPECT_EQ(r.clip(t0 - 10s).front()->captured_at, t0) << "asked for more than is held: all of it";
  EXPECT_EQ(r.clip(t0 + 60s).front()->captured_at, t0 + 4000ms) << "asked for the future: the newest group";
}

TEST(RecordRing, AfterASizeChangeAClipHasTheNewSizeOnly) {
  RecordRing r(60s, 1 << 30);
  feed(r, 0, 2000, 100, {64, 48});
  feed(r, 2000, 4000, 100, {80, 60});
  auto c = r.clip(t0);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front()->captured_at, t0 + 2000ms);
  for (const auto& f : c) EXPECT_EQ(f->size, (Size{80, 60}));
}

TEST(RecordRing, StripesAndEmptyFramesAreNotKept) {
  RecordRing r(60s, 1 << 30);
  auto s = std::const_pointer_cast<encode::EncodedFrame>(frame(0, true));
  s->stripes = 2;
  r.push(s);
  r.push(frame(0, true, 0));
  r.push(nullptr);
  EXPECT_EQ(r.frames(), 0u);
}

TEST(RecordRing, TimeGoingBackStartsAfresh) {
  RecordRing r(60s, 1 << 30);
  feed(r, 1000, 3000);
  r.push(frame(500, false));
  EXPECT_EQ(r.frames(), 0u);
  r.push(frame(600, true));
  EXPECT_EQ(r.frames(), 1u);
}

}  // namespace
}  // namespace voxl::endpoints
