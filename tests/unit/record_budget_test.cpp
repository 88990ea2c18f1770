// The disk rules of recordings: the cap over all of them and the floor of
// free space, without a disk.
#include <gtest/gtest.h>

#include "endpoints/record_budget.h"

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

using Verdict = RecordBudget::Verdict;
constexpr uint64_t kMiB = 1 << 20;

RecordLimits limits(uint64_t cap, uint64_t floor, uint64_t every = kMiB) {
  RecordLimits l;
  l.max_total_bytes = cap;
  l.min_free_bytes = floor;
  l.free_check_every = every;
  return l;
}

TEST(RecordBudget, CapCountsAllRecordingsAndIsNeverExceeded) {
  RecordBudget b(limits(10 * kMiB, 0));
  EXPECT_EQ(b.take(6 * kMiB), Verdict::kOk);  // one recording
  EXPECT_EQ(b.take(4 * kMiB), Verdict::kOk);  // another: exactly at the cap
  EXPECT_EQ(b.used(), 10 * kMiB);
  EXPECT_EQ(b.take(1), Verdict::kCapReached);
  EXPECT_EQ(b.used(), 10 * kMiB) << "a refused frame is not counted";
  EXPECT_EQ(b.can_start(std::nullopt), Verdict::kCapReached);
  b.give_back(6 * kMiB);  // the first one's file is gone
  EXPECT_EQ(b.can_start(std::nullopt), Verdict::kOk);
  EXPECT_EQ(b.take(7 * kMiB), Verdict::kCapReached);
  EXPECT_EQ(b.take(6 * kMiB), Verdict::kOk);
  b.give_back(100 * kMiB);  // never below zero
  EXPECT_EQ(b.used(), 0u);
}

TEST(RecordBudget, LowDiskRefusesAStartAndEndsAGrowingRecording) {
  RecordBudget b(limits(100 * kMiB, 256 * kMiB, 2 * kMiB));
  EXPECT_EQ(b.can_start(300 * kMiB), Verdict::kOk);
  EXPECT_EQ(b.can_start(255 * kMiB), Verdict::kLowDisk);
  EXPECT_EQ(b.can_start(std::nullopt), Verdict::kOk) << "an unknown free space refuses nothing";
  EXPECT_EQ(b.take(kMiB), Verdict::kOk);
  EXPECT_FALSE(b.free_check_due());
  EXPECT_EQ(b.take(kMiB), Verdict::kOk);
  ASSERT_TRUE(b.free_check_due());
  EXPECT_EQ(b.check_free(257 * kMiB), Verdict::kOk);
  EXPECT_FALSE(b.free_check_due()) << "the next look waits for the next 2 MiB";
  EXPECT_EQ(b.take(2 * kMiB), Verdict::kOk);
  ASSERT_TRUE(b.free_check_due());
  EXPECT_EQ(b.check_free(200 * kMiB), Verdict::kLowDisk);
}

// A look made on another thread: the budget only says when one is due.
TEST(RecordBudget, ALookElsewhereStartsTheCountAgain) {
  RecordBudget b(limits(100 * kMiB, 256 * kMiB, 2 * kMiB));
  EXPECT_EQ(b.take(kMiB), Verdict::kOk);
  EXPECT_FALSE(b.start_free_check());
  EXPECT_EQ(b.take(kMiB), Verdict::kOk);
  EXPECT_TRUE(b.start_free_check());
  EXPECT_FALSE(b.free_check_due());
  EXPECT_FALSE(b.start_free_check()) << "once per 2 MiB";
}

}  // namespace
}  // namespace voxl::endpoints
