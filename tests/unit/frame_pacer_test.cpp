#include "stream/video/frame_pacer.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = FramePacer::Clock;

// Captures each drawing as soon as the pacer allows; returns the total hold.
Clock::duration run(FramePacer& pacer, const std::vector<Clock::time_point>& draws) {
  Clock::duration held{};
  Clock::time_point last{};
  for (const auto d : draws) {
    const auto at = std::max({d, pacer.earliest(), last});
    held += at - d;
    pacer.on_capture(at);
    last = at;
  }
  return held;
}

TEST(FramePacer, DrawingAtTheCapIsNeverHeldWhateverItsPhase) {
  for (const auto phase : {0ms, 1ms, 8ms, 16ms}) {
    FramePacer pacer(60);
    std::vector<Clock::time_point> draws;
    const auto start = Clock::time_point{} + 1h + phase;
    for (int k = 0; k < 600; ++k) draws.push_back(start + k * pacer.interval());
    EXPECT_EQ(run(pacer, draws), Clock::duration{}) << "phase " << phase.count() << " ms";
  }
}

TEST(FramePacer, JitteredDrawingAtTheCapIsNeverHeld) {
  FramePacer pacer(60);
  std::vector<Clock::time_point> draws;
  const auto start = Clock::time_point{} + 1h;
  // Each frame lands up to 7 ms late, alternating, as from a busy compositor.
  for (int k = 0; k < 600; ++k) draws.push_back(start + k * pacer.interval() + (k % 2 ? 7ms : 0ms));
  EXPECT_EQ(run(pacer, draws), Clock::duration{});
}

TEST(FramePacer, ContinuousDamageIsCappedToTheRate) {
  FramePacer pacer(30);
  const auto start = Clock::time_point{} + 1h;
  auto now = start;
  int frames = 0;
  while (now < start + 10s) {  // damage is always pending: capture whenever allowed
    now = std::max(now, pacer.earliest());
    pacer.on_capture(now);
    ++frames;
    now += 1ms;  // the capture and encode themselves
  }
  // A window of n seconds holds n * (cap + 1) + 1 slots (the cap plus the
  // frame a second that lets the phase converge), plus the early frames.
  EXPECT_LE(frames, 31 * 10 + 3);
  EXPECT_GE(frames, 31 * 10 - 1);
}

// Holds of each drawing at the cap when drawing `at` lands `late` and one
// extra capture follows it 1 ms later (the rest of a drawing taken in two
// halves, a key frame): the pattern that used to pin every later capture
// to that late phase for the rest of the run.
std::vector<Clock::duration> holds_after_a_late_extra_capture(FramePacer& pacer, int at, Clock::duration late) {
  std::vector<Clock::duration> holds;
  Clock::time_point last{};
  const auto start = Clock::time_point{} + 1h;
  for (int k = 0; k < 600; ++k) {
    const auto d = start + k * pacer.interval() + (k == at ? late : Clock::duration{});
    const auto c = std::max({d, pacer.earliest(), last});
    holds.push_back(c - d);
    pacer.on_capture(c);
    last = c;
    if (k == at) {
      const auto extra = std::max(c + 1ms, pacer.earliest());
      pacer.on_capture(extra);
      last = extra;
    }
  }
  return holds;
}

TEST(FramePacer, AfterALateExtraCaptureTheCapturesConvergeBackOntoTheDrawing) {
  for (const auto late : {1ms, 3ms, 5ms, 10ms}) {
    FramePacer pacer(60);
    const auto holds = holds_after_a_late_extra_capture(pacer, 10, late);
    // Held for a while (the extra frame used the early one), but within
    // about a second every drawing is captured as it lands again, for good.
    for (size_t k = 10 + 75; k < holds.size(); ++k)
      ASSERT_EQ(holds[k], Clock::duration{}) << "frame " << k << ", drawing 10 late by " << late.count() << " ms";
    EXPECT_LE(*std::max_element(holds.begin(), holds.end()), late);
  }
}

TEST(FramePacer, ABurstAfterIdleIsAtMostTwoFrames) {
  FramePacer pacer(60);
  const auto t = Clock::time_point{} + 1h;
  EXPECT_LE(pacer.earliest(), t);
  pacer.on_capture(t);
  EXPECT_LE(pacer.earliest(), t);  // one more may follow at once
  pacer.on_capture(t);
  EXPECT_GT(pacer.earliest(), t);  // a third waits
  EXPECT_LE(pacer.earliest(), t + pacer.interval());
}

TEST(FramePacer, BackOffWaitsOneInterval) {
  FramePacer pacer(50);
  const auto t = Clock::time_point{} + 1h;
  pacer.back_off(t);
  EXPECT_EQ(pacer.earliest(), t + 20ms);
}

}  // namespace
}  // namespace voxl::stream
