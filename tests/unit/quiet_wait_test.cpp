#include "capture/quiet_wait.h"

#include <gtest/gtest.h>

namespace voxl::capture {
namespace {

using namespace std::chrono_literals;
using Clock = QuietWait::Clock;

TEST(QuietWait, EndsOnceNoChangeCameForTheQuietTimeAndTheServerConfirms) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 500us, 4ms);
  EXPECT_EQ(w.deadline(), t + 500us);
  EXPECT_FALSE(w.needs_confirmation(t + 499us));
  EXPECT_FALSE(w.done(t + 499us));
  // Quiet, but not yet known to be finished: the server may be descheduled
  // in the middle of the frame.
  EXPECT_TRUE(w.needs_confirmation(t + 500us));
  EXPECT_FALSE(w.done(t + 500us));
  w.on_confirmed(false, t + 600us);
  EXPECT_FALSE(w.needs_confirmation(t + 600us));
  EXPECT_TRUE(w.done(t + 600us));
}

TEST(QuietWait, DamageBeforeTheConfirmationStartsTheQuietTimeAgain) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 500us, 8ms);
  // The round trip waited for the rest of the frame: 3 ms more drawing.
  w.on_confirmed(true, t + 3500us);
  EXPECT_FALSE(w.done(t + 3500us));
  EXPECT_FALSE(w.needs_confirmation(t + 3999us));
  EXPECT_EQ(w.deadline(), t + 4ms);
  EXPECT_TRUE(w.needs_confirmation(t + 4ms));
  w.on_confirmed(false, t + 4100us);
  EXPECT_TRUE(w.done(t + 4100us));
}

TEST(QuietWait, ALaterChangeNeedsAnotherConfirmation) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 500us, 8ms);
  w.on_confirmed(false, t + 600us);
  w.on_change(t + 700us);
  EXPECT_FALSE(w.done(t + 1300us));
  EXPECT_TRUE(w.needs_confirmation(t + 1300us));
}

TEST(QuietWait, TheLongestWaitNeedsNoConfirmation) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 500us, 4ms);
  w.on_change(t + 3800us);
  EXPECT_TRUE(w.capped(t + 4ms));
  EXPECT_FALSE(w.needs_confirmation(t + 4ms));
  EXPECT_TRUE(w.done(t + 4ms));
}

TEST(QuietWait, TheLongestWaitIsHalfAFrameOrTheQuietTime) {
  // A full-screen frame takes the X server ~5 ms to draw on a loaded
  // machine: a quarter of a 60 Hz frame (4.2 ms) cut it in two.
  EXPECT_EQ(QuietWait::longest_for(std::chrono::microseconds(16666), 500us), 8333us);
  EXPECT_EQ(QuietWait::longest_for(std::chrono::microseconds(16666), 10ms), 10ms);
  EXPECT_EQ(QuietWait::longest_for(1s, 500us), 500ms);
}

TEST(QuietWait, EachChangeStartsTheQuietTimeAgain) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 500us, 4ms);
  w.on_change(t + 300us);
  w.on_change(t + 700us);
  EXPECT_EQ(w.deadline(), t + 1200us);
  EXPECT_FALSE(w.done(t + 1100us));
  w.on_change(t + 200us);  // an older report changes nothing
  EXPECT_EQ(w.deadline(), t + 1200us);
}

TEST(QuietWait, ContinuousDrawingIsCapturedAfterTheLongestWait) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 500us, 4ms);
  auto now = t;
  while (!w.done(now)) {  // a report every 100 µs, for ever
    EXPECT_FALSE(w.needs_confirmation(now));
    now += 100us;
    w.on_change(now);
  }
  EXPECT_EQ(now, t + 4ms);
}

TEST(QuietWait, ZeroQuietAsksForTheConfirmationAtOnce) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 0us, 4ms);
  EXPECT_TRUE(w.needs_confirmation(t));
  w.on_confirmed(false, t);
  EXPECT_TRUE(w.done(t));
}

}  // namespace
}  // namespace voxl::capture
