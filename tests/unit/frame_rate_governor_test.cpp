// The frame rate traded against the quantiser, on synthetic traces of
// rate factors: a link too slow for the content at the full rate, room
// coming back, a locked rate, and noise around the ceiling.
#include "stream/video/frame_rate_governor.h"

#include <gtest/gtest.h>

#include <cmath>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = FrameRateGovernor::Clock;

const Clock::time_point t0 = Clock::time_point{} + 1h;
constexpr double kCrf = 24;

// Content that needs `need_kbps` at kCrf and 60 fps, under a cap of
// `cap_kbps`: the rate factor x264 would reach (+6 per halving of the
// bits a frame gets) at `fps`.
double rate_factor(double need_kbps, double cap_kbps, int fps) {
  const double per_frame_need = need_kbps / 60;
  const double per_frame_cap = cap_kbps / fps;
  return kCrf + std::max(0.0, 6 * std::log2(per_frame_need / per_frame_cap));
}

// Runs `seconds` of motion frames at the governor's rate.
Clock::time_point run(FrameRateGovernor& g, Clock::time_point from, double seconds, double need, double cap) {
  auto t = from;
  while (t < from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))) {
    g.on_motion_frame(rate_factor(need, cap, g.fps()), kCrf, t);
    t += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / g.fps()));
  }
  return t;
}

TEST(FrameRateGovernor, KeepsTheFullRateWhileTheCapDoesNotBind) {
  FrameRateGovernor g(10, 60);
  run(g, t0, 5, 4000, 5000);
  EXPECT_EQ(g.fps(), 60);
  EXPECT_DOUBLE_EQ(g.excess(), 0);
}

TEST(FrameRateGovernor, LowersTheRateUntilTheQuantiserIsBackUnderTheCeiling) {
  FrameRateGovernor g(10, 60);
  // Over three times what the link carries at 60 fps.
  const auto t = run(g, t0, 4, 16000, 5000);
  EXPECT_LE(g.fps(), 45);
  EXPECT_GE(g.fps(), 25);
  EXPECT_LE(rate_factor(16000, 5000, g.fps()) - kCrf, FrameRateGovernor::kCeiling);
  // Stable: no oscillation once settled.
  const int settled = g.fps();
  run(g, t, 5, 16000, 5000);
  EXPECT_NEAR(g.fps(), settled, settled * 0.3);
}

TEST(FrameRateGovernor, NeverGoesBelowTheFloor) {
  FrameRateGovernor g(20, 60);
  run(g, t0, 10, 100000, 2000);
  EXPECT_EQ(g.fps(), 20);
}

TEST(FrameRateGovernor, RaisesTheRateAgainWhenThereIsRoom) {
  FrameRateGovernor g(10, 60);
  const auto t = run(g, t0, 5, 20000, 5000);
  EXPECT_LT(g.fps(), 30);
  run(g, t, 6, 20000, 30000);  // the link got faster
  EXPECT_EQ(g.fps(), 60);
}

TEST(FrameRateGovernor, ALockedRateStays) {
  FrameRateGovernor g(60, 60);
  run(g, t0, 3, 100000, 2000);
  EXPECT_EQ(g.fps(), 60);
}

TEST(FrameRateGovernor, ALoneBlurredFrameDoesNotLowerTheRate) {
  FrameRateGovernor g(10, 60);
  auto t = t0;
  for (int i = 0; i < 600; ++i, t += 16ms) g.on_motion_frame(i % 30 == 0 ? kCrf + 12 : kCrf + 1, kCrf, t);
  EXPECT_EQ(g.fps(), 60);
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

TEST(FrameRateGovernor, AViewersCeilingCapsTheRateWithoutForgettingIt) {
  FrameRateGovernor g(10, 60);
  g.set_ceiling(24);
  EXPECT_EQ(g.fps(), 24);
  // An easy link does not climb past the ceiling.
  run(g, t0, 5, 4000, 50000);
  EXPECT_EQ(g.fps(), 24);
  // Lifted, the rate is back at once.
  g.set_ceiling(60);
  EXPECT_EQ(g.fps(), 60);
  // Out of range is clamped.
  g.set_ceiling(500);
  EXPECT_EQ(g.fps(), 60);
  g.set_ceiling(0);
  EXPECT_EQ(g.fps(), 1);
}

TEST(FrameRateGovernor, ASlowLinkStillLowersTheRateUnderACeiling) {
  FrameRateGovernor g(10, 60);
  g.set_ceiling(30);
  // Content that needs far more than the cap even at 30 fps.
  run(g, t0, 10, 40000, 3000);
  EXPECT_LT(g.fps(), 30);
  EXPECT_GE(g.fps(), 10);
  // A ceiling below the floor is the rate.
  g.set_ceiling(5);
  EXPECT_EQ(g.fps(), 5);
}

}  // namespace
}  // namespace voxl::stream
