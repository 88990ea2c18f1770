#include "stream/frame_pacer.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace voxl::stream {
namespace {

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
  // A window of n intervals holds n + 1 slots, plus the one early frame.
  EXPECT_LE(frames, 30 * 10 + 2);
  EXPECT_GE(frames, 30 * 10 - 1);
}

TEST(FramePacer, ABurstAfterIdleIsAtMostTwoFrames) {
  FramePacer pacer(60);
  const auto t = Clock::time_point{} + 1h;
  EXPECT_LE(pacer.earliest(), t);
  pacer.on_capture(t);
  EXPECT_LE(pacer.earliest(), t);  // one more may follow at once
  pacer.on_capture(t);
  EXPECT_EQ(pacer.earliest(), t + pacer.interval());
}

TEST(FramePacer, BackOffWaitsOneInterval) {
  FramePacer pacer(50);
  const auto t = Clock::time_point{} + 1h;
  pacer.back_off(t);
  EXPECT_EQ(pacer.earliest(), t + 20ms);
}

}  // namespace
}  // namespace voxl::stream
