#include "capture/quiet_wait.h"

#include <gtest/gtest.h>

namespace voxl::capture {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = QuietWait::Clock;

TEST(QuietWait, EndsOnceNoChangeCameForTheQuietTime) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 500us, 4ms);
  EXPECT_EQ(w.deadline(), t + 500us);
  EXPECT_FALSE(w.done(t + 499us));
  EXPECT_TRUE(w.done(t + 500us));
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
    now += 100us;
    w.on_change(now);
  }
  EXPECT_EQ(now, t + 4ms);
}

TEST(QuietWait, ZeroQuietEndsAtOnce) {
  const auto t = Clock::time_point{} + 1h;
  QuietWait w(t, 0us, 4ms);
  EXPECT_TRUE(w.done(t));
}

}  // namespace
}  // namespace voxl::capture
