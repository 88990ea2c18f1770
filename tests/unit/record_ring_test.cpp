// The stream kept for retroactive recordings: it starts at a key frame,
// its bounds in time and bytes drop whole groups of pictures, and a clip
// begins at the right key frame (and after a size change, at the new
// size's first).
#include "endpoints/record_ring.h"

#include <gtest/gtest.h>

#include <memory>

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

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

// The ring's invariants after any push.
void expect_sound(const RecordRing& r) {
  const auto all = r.clip(Clock::time_point::min());
  if (r.frames() == 0) {
    EXPECT_TRUE(all.empty());
    EXPECT_EQ(r.bytes(), 0u);
    EXPECT_FALSE(r.oldest());
    return;
  }
  ASSERT_FALSE(all.empty());
  EXPECT_TRUE(all.front()->key) << "what is held begins at a key frame";
  EXPECT_LE(r.bytes(), r.max_bytes());
  ASSERT_TRUE(r.oldest());
}

TEST(RecordRing, AnEmptyRingHoldsNothingAndWantsAKey) {
  RecordRing r(10s, 1 << 20);
  EXPECT_EQ(r.frames(), 0u);
  EXPECT_EQ(r.bytes(), 0u);
  EXPECT_EQ(r.held(), 0ms);
  EXPECT_FALSE(r.oldest());
  EXPECT_TRUE(r.clip(t0).empty());
  EXPECT_TRUE(r.needs_key(t0, 2s));
}

TEST(RecordRing, ARingWithNoKeyFrameYetKeepsNothing) {
  RecordRing r(10s, 1 << 20);
  r.push(frame(0, false));
  r.push(frame(100, false));
  EXPECT_EQ(r.frames(), 0u) << "nothing before the first key frame";
  EXPECT_TRUE(r.clip(t0 + 1s).empty());
  EXPECT_TRUE(r.needs_key(t0 + 100ms, 2s)) << "a key frame is wanted at once";
  r.push(frame(200, true));
  r.push(frame(300, false));
  EXPECT_EQ(r.frames(), 2u);
  EXPECT_EQ(r.bytes(), 200u);
  EXPECT_EQ(r.oldest(), t0 + 200ms);
  EXPECT_EQ(r.held(), 100ms);
  expect_sound(r);
}

TEST(RecordRing, AKeyFrameIsWantedAnIntervalAfterTheLast) {
  RecordRing r(10s, 1 << 20);
  r.push(frame(0, true));
  EXPECT_FALSE(r.needs_key(t0 + 1999ms, 2s));
  EXPECT_TRUE(r.needs_key(t0 + 2s, 2s));
  r.push(frame(2100, true));
  EXPECT_FALSE(r.needs_key(t0 + 2200ms, 2s)) << "the newest key frame counts";
}

TEST(RecordRing, TheAgeBoundDropsWholeGroupsAndKeepsTheSpan) {
  RecordRing r(3s, 1 << 30);
  for (int ms = 0; ms < 10000; ms += 100) {
    r.push(frame(ms, ms % 1000 == 0));
    expect_sound(r);
    // A clip of the last 3 s can always start at a key frame at or before
    // then, once that much has been seen.
    if (ms >= 4000) {
      const auto c = r.clip(t0 + std::chrono::milliseconds(ms) - 3s);
      ASSERT_FALSE(c.empty());
      EXPECT_LE(c.front()->captured_at, t0 + std::chrono::milliseconds(ms) - 3s);
    }
  }
  // At most the bound and one group more.
  EXPECT_GE(r.held(), 3000ms);
  EXPECT_LE(r.held(), 3900ms);
  EXPECT_EQ(r.oldest(), t0 + 6000ms);
  EXPECT_EQ(r.frames(), size_t(r.held().count() / 100 + 1));
  EXPECT_EQ(r.bytes(), r.frames() * 100);
}

TEST(RecordRing, TheByteBoundDropsWholeGroupsFromTheFront) {
  RecordRing r(600s, 2500);  // 25 frames of 100 bytes: two groups of ten, and part of a third
  for (int ms = 0; ms < 5000; ms += 100) {
    r.push(frame(ms, ms % 1000 == 0));
    expect_sound(r);
  }
  EXPECT_LE(r.bytes(), 2500u);
  EXPECT_EQ(r.oldest(), t0 + 3000ms) << "groups from 3 s and 4 s remain";
  EXPECT_EQ(r.frames(), 20u);
  EXPECT_EQ(r.clip(t0).front()->captured_at, t0 + 3000ms);
}

TEST(RecordRing, AGroupLargerThanTheCapEmptiesTheRingUntilTheNextKey) {
  RecordRing small(600s, 500);
  feed(small, 0, 900);  // one group of 900 bytes
  EXPECT_EQ(small.frames(), 0u);
  EXPECT_EQ(small.bytes(), 0u);
  EXPECT_TRUE(small.needs_key(t0 + 900ms, 2s)) << "it asks for a key frame to start again";
  small.push(frame(950, false));
  EXPECT_EQ(small.frames(), 0u);
  small.push(frame(1000, true));
  EXPECT_EQ(small.frames(), 1u);
  expect_sound(small);
  // A large key frame with small ones after it.
  RecordRing r(600s, 1000);
  r.push(frame(0, true, 900));
  r.push(frame(100, false, 50));
  r.push(frame(200, true, 400));
  EXPECT_EQ(r.oldest(), t0 + 200ms) << "the first group went as a whole";
  EXPECT_EQ(r.bytes(), 400u);
}

TEST(RecordRing, AClipStartsAtTheKeyFrameAtOrBeforeItsStart) {
  RecordRing r(60s, 1 << 30);
  feed(r, 0, 5000);
  auto c = r.clip(t0 + 2500ms);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front()->captured_at, t0 + 2000ms);
  EXPECT_TRUE(c.front()->key);
  EXPECT_EQ(c.back()->captured_at, t0 + 4900ms);
  EXPECT_EQ(c.size(), 30u);
  EXPECT_EQ(r.clip(t0 + 2000ms).front()->captured_at, t0 + 2000ms);
  EXPECT_EQ(r.clip(t0 + 1999ms).front()->captured_at, t0 + 1000ms);
  EXPECT_EQ(r.clip(t0 - 10s).front()->captured_at, t0) << "asked for more than is held: all of it";
  EXPECT_EQ(r.clip(t0 + 60s).front()->captured_at, t0 + 4000ms) << "asked for the future: the newest group";
}

TEST(RecordRing, AfterASizeChangeAClipHasTheNewSizeOnly) {
  RecordRing r(60s, 1 << 30);
  feed(r, 0, 2000, 100, {64, 48});
  feed(r, 2000, 4000, 100, {80, 60});
  for (const auto since : {t0, t0 + 1500ms, t0 + 2000ms}) {
    auto c = r.clip(since);
    ASSERT_FALSE(c.empty());
    EXPECT_EQ(c.front()->captured_at, t0 + 2000ms);
    for (const auto& f : c) EXPECT_EQ(f->size, (Size{80, 60}));
  }
  EXPECT_EQ(r.clip(t0 + 3500ms).front()->captured_at, t0 + 3000ms) << "a window after the change is not moved";
  // A change back and forth inside the window: from the last change on.
  feed(r, 4000, 5000, 100, {64, 48});
  feed(r, 5000, 6000, 100, {80, 60});
  EXPECT_EQ(r.clip(t0).front()->captured_at, t0 + 5000ms);
}

TEST(RecordRing, ANewSizeWithNoKeyFrameHeldGivesNoClip) {
  RecordRing r(60s, 1 << 30);
  feed(r, 0, 1000);
  r.push(frame(1000, false, 100, {80, 60}));  // not a real stream: a new size starts with an IDR
  EXPECT_TRUE(r.clip(t0).empty());
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
  EXPECT_EQ(r.bytes(), 0u);
  r.push(frame(600, true));
  EXPECT_EQ(r.frames(), 1u);
  EXPECT_EQ(r.oldest(), t0 + 600ms);
}

}  // namespace
}  // namespace voxl::endpoints
