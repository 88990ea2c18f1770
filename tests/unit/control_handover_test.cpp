// ControlHandover: who holds the keyboard and mouse among several viewers,
// on a clock the test moves.
#include "input/control_handover.h"

#include <gtest/gtest.h>

namespace voxl::input {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Outcome = ControlHandover::Outcome;

class ControlHandoverTest : public ::testing::Test {
 protected:
  ControlHandover::Time t0 = std::chrono::steady_clock::time_point{} + 1h;
  ControlHandover h{10s};
};

TEST_F(ControlHandoverTest, ALoneViewerTakesControlWithItsFirstInput) {
  h.join(1, false);
  EXPECT_EQ(h.holder(), 0u);
  EXPECT_TRUE(h.on_input(1, t0));
  EXPECT_EQ(h.holder(), 1u);
  EXPECT_TRUE(h.on_input(1, t0 + 1s));
  EXPECT_FALSE(h.deadline()) << "nobody waits: no timer";
}

TEST_F(ControlHandoverTest, OnlyTheHolderUsesInput) {
  h.join(1, false);
  h.join(2, false);
  EXPECT_TRUE(h.on_input(2, t0));
  EXPECT_FALSE(h.on_input(1, t0));
  EXPECT_EQ(h.holder(), 2u);
  EXPECT_FALSE(h.requesting(1)) << "input is not a request";
}

TEST_F(ControlHandoverTest, ARequestWithNobodyHoldingTakesControl) {
  h.join(1, false);
  h.join(2, false);
  EXPECT_EQ(h.request(2, t0), Outcome::kDone);
  EXPECT_EQ(h.holder(), 2u);
  EXPECT_FALSE(h.requesting(2));
}

TEST_F(ControlHandoverTest, RequestGrantAndDeny) {
  h.join(1, false);
  h.join(2, false);
  h.join(3, false);
  ASSERT_TRUE(h.on_input(1, t0));
  const auto before = h.changes();
  EXPECT_EQ(h.request(2, t0), Outcome::kDone);
  EXPECT_EQ(h.request(3, t0), Outcome::kDone);
  EXPECT_GT(h.changes(), before);
  EXPECT_TRUE(h.requesting(2));
  EXPECT_TRUE(h.requesting(3));
  EXPECT_EQ(h.holder(), 1u);
  // Only the holder grants or denies.
  EXPECT_EQ(h.grant(2, 3, t0), Outcome::kRefused);
  EXPECT_EQ(h.deny(3, 2), Outcome::kRefused);
  EXPECT_EQ(h.deny(1, 2), Outcome::kDone);
  EXPECT_FALSE(h.requesting(2));
  EXPECT_EQ(h.grant(1, 2, t0), Outcome::kUnknown) << "2 no longer asks";
  EXPECT_EQ(h.grant(1, 3, t0), Outcome::kDone);
  EXPECT_EQ(h.holder(), 3u);
  EXPECT_FALSE(h.requesting(3));
  EXPECT_FALSE(h.on_input(1, t0));
  EXPECT_TRUE(h.on_input(3, t0));
}

TEST_F(ControlHandoverTest, ReleaseGoesToTheOldestRequesterOrFreesControl) {
  h.join(1, false);
  h.join(2, false);
  h.join(3, false);
  ASSERT_TRUE(h.on_input(1, t0));
  h.request(3, t0);
  h.request(2, t0 + 1s);
  EXPECT_EQ(h.release(1, t0 + 2s), Outcome::kDone);
  EXPECT_EQ(h.holder(), 3u) << "3 asked first";
  EXPECT_TRUE(h.requesting(2));
  // A requester may withdraw.
  h.release(2, t0 + 3s);
  EXPECT_FALSE(h.requesting(2));
  h.release(3, t0 + 4s);
  EXPECT_EQ(h.holder(), 0u);
  EXPECT_TRUE(h.on_input(2, t0 + 5s)) << "free again: the first input takes it";
}

TEST_F(ControlHandoverTest, AnIdleHolderLosesControlToARequesterAfterTheTimeout) {
  h.join(1, false);
  h.join(2, false);
  ASSERT_TRUE(h.on_input(1, t0));
  h.request(2, t0 + 1s);
  ASSERT_TRUE(h.deadline());
  EXPECT_EQ(*h.deadline(), t0 + 10s);
  // The holder keeps working: the deadline moves on.
  h.on_input(1, t0 + 5s);
  h.on_timer(t0 + 10s);
  EXPECT_EQ(h.holder(), 1u);
  EXPECT_EQ(*h.deadline(), t0 + 15s);
  h.on_timer(t0 + 15s);
  EXPECT_EQ(h.holder(), 2u);
  EXPECT_FALSE(h.deadline());
}

TEST_F(ControlHandoverTest, NoTimeoutWithZero) {
  ControlHandover never(0s);
  never.join(1, false);
  never.join(2, false);
  ASSERT_TRUE(never.on_input(1, t0));
  never.request(2, t0);
  EXPECT_FALSE(never.deadline());
  never.on_timer(t0 + 24h);
  EXPECT_EQ(never.holder(), 1u);
}

TEST_F(ControlHandoverTest, WhenTheHolderLeavesTheOldestRequesterGetsIt) {
  h.join(1, false);
  h.join(2, false);
  h.join(3, false);
  ASSERT_TRUE(h.on_input(1, t0));
  h.request(3, t0);
  h.leave(1, t0 + 1s);
  EXPECT_EQ(h.holder(), 3u);
  h.leave(3, t0 + 2s);
  EXPECT_EQ(h.holder(), 0u) << "nobody asked: control is free";
  // A requester that leaves is forgotten.
  ASSERT_TRUE(h.on_input(2, t0 + 3s));
  h.join(4, false);
  h.request(4, t0 + 3s);
  h.leave(4, t0 + 4s);
  EXPECT_FALSE(h.deadline());
  h.release(2, t0 + 5s);
  EXPECT_EQ(h.holder(), 0u);
}

TEST_F(ControlHandoverTest, ViewOnlyViewersNeverRequestNorHold) {
  h.join(1, true);
  h.join(2, false);
  EXPECT_FALSE(h.on_input(1, t0));
  EXPECT_EQ(h.request(1, t0), Outcome::kRefused);
  EXPECT_EQ(h.holder(), 0u);
  EXPECT_FALSE(h.requesting(1));
  ASSERT_TRUE(h.on_input(2, t0));
  EXPECT_EQ(h.request(1, t0), Outcome::kRefused);
  EXPECT_EQ(h.grant(2, 1, t0), Outcome::kUnknown);
  EXPECT_EQ(h.holder(), 2u);
}

TEST_F(ControlHandoverTest, UnknownViewersChangeNothing) {
  h.join(1, false);
  EXPECT_FALSE(h.on_input(7, t0));
  EXPECT_EQ(h.request(7, t0), Outcome::kUnknown);
  EXPECT_EQ(h.holder(), 0u);
  h.join(0, false);  // 0 is nobody
  EXPECT_FALSE(h.on_input(0, t0));
}

}  // namespace
}  // namespace voxl::input
