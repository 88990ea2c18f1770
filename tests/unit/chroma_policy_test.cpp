#include "stream/video/chroma_policy.h"

#include <gtest/gtest.h>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using encode::ChromaFormat;
using Time = ChromaPolicy::Time;

constexpr Time kStart{std::chrono::hours(1)};

TEST(ChromaPolicy, StartsAt420AndGoesFullOnlyWhenStillAndAllowed) {
  ChromaPolicy p;
  EXPECT_EQ(p.format(), ChromaFormat::k420);
  EXPECT_EQ(p.on_change(1.0, true, kStart), ChromaFormat::k420) << "motion never switches to 4:4:4";
  EXPECT_EQ(p.on_still(false, kStart), ChromaFormat::k420) << "not every consumer decodes it";
  EXPECT_FALSE(p.full_chroma_due(false));
  ASSERT_TRUE(p.full_chroma_due(true));
  EXPECT_EQ(*p.full_chroma_due(true), Time::min()) << "no hold-off before the first switch";
  EXPECT_EQ(p.on_still(true, kStart), ChromaFormat::k444);
  EXPECT_FALSE(p.full_chroma_due(true)) << "already 4:4:4";
}

TEST(ChromaPolicy, SmallUpdatesAndSingleBigChangesStayFull) {
  ChromaPolicy p;
  p.on_still(true, kStart);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(p.on_change(0.01, true, kStart + i * 16ms), ChromaFormat::k444);
  // A window switch: one full-picture change, then typing again.
  EXPECT_EQ(p.on_change(1.0, true, kStart + 2s), ChromaFormat::k444);
  EXPECT_EQ(p.on_change(0.02, true, kStart + 2s + 16ms), ChromaFormat::k444);
  // Two heavy frames, a still paintover, two heavy frames: never three in a row.
  p.on_change(0.5, true, kStart + 3s);
  p.on_change(0.5, true, kStart + 3s + 16ms);
  EXPECT_EQ(p.on_still(true, kStart + 3s + 200ms), ChromaFormat::k444);
  p.on_change(0.5, true, kStart + 4s);
  EXPECT_EQ(p.on_change(0.5, true, kStart + 4s + 16ms), ChromaFormat::k444);
}

TEST(ChromaPolicy, HeavyMotionGoesBackTo420) {
  ChromaPolicy p;
  p.on_still(true, kStart);
  const double heavy = ChromaPolicy::kHeavyFraction;
  for (int i = 1; i < ChromaPolicy::kHeavyFrames; ++i)
    EXPECT_EQ(p.on_change(heavy, true, kStart + i * 16ms), ChromaFormat::k444);
  EXPECT_EQ(p.on_change(heavy, true, kStart + 100ms), ChromaFormat::k420);
  EXPECT_EQ(p.on_change(0.0, true, kStart + 120ms), ChromaFormat::k420) << "stays until still again";
  // Just below the threshold is not heavy.
  ChromaPolicy q;
  q.on_still(true, kStart);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(q.on_change(heavy * 0.99, true, kStart + i * 16ms), ChromaFormat::k444);
}

TEST(ChromaPolicy, WithdrawnPermissionGoesBackAtOnce) {
  ChromaPolicy p;
  p.on_still(true, kStart);
  EXPECT_EQ(p.on_change(0.0, false, kStart + 1s), ChromaFormat::k420);
  ChromaPolicy q;
  q.on_still(true, kStart);
  EXPECT_EQ(q.on_still(false, kStart + 1s), ChromaFormat::k420) << "a paintover with a newcomer";
}

// Motion bursts with short pauses cannot make the stream switch at every
// pause: one switch into 4:4:4 per kMinInterval, the next still screen
// waits for the hold-off to end (and full_chroma_due says when).
TEST(ChromaPolicy, SwitchesAreRateLimited) {
  ChromaPolicy p;
  Time t = kStart;
  int entries = 0;
  ChromaFormat was = p.format();
  for (int cycle = 0; cycle < 50; ++cycle) {
    for (int i = 0; i < ChromaPolicy::kHeavyFrames; ++i) p.on_change(1.0, true, t += 16ms);
    p.on_still(true, t += 200ms);
    if (p.format() == ChromaFormat::k444 && was != ChromaFormat::k444) ++entries;
    was = p.format();
  }
  const auto span = t - kStart;
  EXPECT_LE(entries, 1 + span / ChromaPolicy::kMinInterval);
  EXPECT_GE(entries, 2);
  // During the hold-off a still screen is told when it may switch.
  ChromaPolicy q;
  q.on_still(true, kStart);
  for (int i = 0; i < ChromaPolicy::kHeavyFrames; ++i) q.on_change(1.0, true, kStart + 16ms * (i + 1));
  EXPECT_EQ(q.on_still(true, kStart + 500ms), ChromaFormat::k420);
  ASSERT_TRUE(q.full_chroma_due(true));
  EXPECT_EQ(*q.full_chroma_due(true), kStart + ChromaPolicy::kMinInterval);
  EXPECT_EQ(q.on_still(true, kStart + ChromaPolicy::kMinInterval), ChromaFormat::k444);
}

}  // namespace
}  // namespace voxl::stream
