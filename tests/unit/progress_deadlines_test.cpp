#include "input/progress_deadlines.h"

#include <gtest/gtest.h>

#include <chrono>

namespace voxl::input {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(ProgressDeadlines, NothingExpiresWithoutTransfers) {
  ProgressDeadlines<int> d(10s);
  EXPECT_FALSE(d.next_expiry());
  EXPECT_TRUE(d.take_expired(Clock::now()).empty());
}

TEST(ProgressDeadlines, ATransferWithoutProgressExpiresAfterTheLimit) {
  ProgressDeadlines<int> d(10s);
  const Clock::time_point t0{};
  d.progress(1, t0);
  ASSERT_TRUE(d.next_expiry());
  EXPECT_EQ(*d.next_expiry(), t0 + 10s);
  EXPECT_TRUE(d.take_expired(t0 + 9s).empty());
  EXPECT_EQ(d.take_expired(t0 + 10s), std::vector<int>{1});
  EXPECT_FALSE(d.contains(1));
  EXPECT_FALSE(d.next_expiry());
}

TEST(ProgressDeadlines, ProgressPushesTheDeadlineBack) {
  ProgressDeadlines<int> d(10s);
  const Clock::time_point t0{};
  d.progress(1, t0);
  d.progress(1, t0 + 8s);
  EXPECT_TRUE(d.take_expired(t0 + 12s).empty());
  EXPECT_EQ(*d.next_expiry(), t0 + 18s);
  EXPECT_EQ(d.take_expired(t0 + 18s), std::vector<int>{1});
}

TEST(ProgressDeadlines, OnlyTheIdleOnesExpireAndTheNextIsTheEarliest) {
  ProgressDeadlines<int> d(10s);
  const Clock::time_point t0{};
  d.progress(1, t0);
  d.progress(2, t0 + 5s);
  d.progress(3, t0 + 2s);
  EXPECT_EQ(*d.next_expiry(), t0 + 10s);
  EXPECT_EQ(d.take_expired(t0 + 13s), (std::vector<int>{1, 3}));
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(*d.next_expiry(), t0 + 15s);
}

TEST(ProgressDeadlines, AFinishedTransferNeverExpires) {
  ProgressDeadlines<int> d(10s);
  const Clock::time_point t0{};
  d.progress(1, t0);
  d.erase(1);
  d.erase(7);  // unknown: nothing happens
  EXPECT_TRUE(d.take_expired(t0 + 1h).empty());
}

}  // namespace
}  // namespace voxl::input
