// The share file transfers get beside a viewer (TransferShare) and its
// hand-out by address (LinkShares), on synthetic ack traces and fake
// transfers: simulated time, nothing depends on the machine's speed.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "stream/pacing/link_shares.h"
#include "stream/pacing/transfer_share.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Time = TransferShare::Time;

const Time t0 = Time{} + 1h;

LinkSample sample(double queue_ms, double delivery_kbps = 10000, double video_kbps = 4000) {
  return {queue_ms, 40, delivery_kbps, video_kbps};
}

TEST(TransferShare, NoLimitBeforeTheViewerSaysAnything) {
  TransferShare s(t0);
  EXPECT_FALSE(s.kbps());
  s.on_progress(t0 + 5s);  // a still screen from the start: nothing known, nothing held back
  EXPECT_FALSE(s.kbps());
}

TEST(TransferShare, StartsAtHalfTheSpareRateTheViewerMeasured) {
  TransferShare s(t0);
  s.on_link(sample(30, 10000, 4000), t0);
  ASSERT_TRUE(s.kbps());
  EXPECT_DOUBLE_EQ(*s.kbps(), 3000);
  TransferShare busy(t0);
  busy.on_link(sample(30, 3000, 4000), t0);  // the video takes it all: the start rate
  EXPECT_DOUBLE_EQ(*busy.kbps(), TransferShare::kStartKbps);
}

TEST(TransferShare, AQueueTwiceTheTargetHalvesItPerIntervalDownToTheFloor) {
  TransferShare s(t0);
  s.on_link(sample(0), t0);
  const double start = *s.kbps();
  s.on_link(sample(2 * TransferShare::kTargetDelayMs), t0 + TransferShare::kHalveEvery);
  EXPECT_NEAR(*s.kbps(), start / 2, 1e-6);
  s.on_link(sample(10 * TransferShare::kTargetDelayMs), t0 + 2 * TransferShare::kHalveEvery);  // no faster
  EXPECT_NEAR(*s.kbps(), start / 4, 1e-6);
  Time t = t0 + 2 * TransferShare::kHalveEvery;
  for (int i = 0; i < 100; ++i) s.on_link(sample(1000), t += 100ms);
  EXPECT_DOUBLE_EQ(*s.kbps(), TransferShare::kFloorKbps);
}

TEST(TransferShare, MovesByTimeNotByAckCount) {
  TransferShare a(t0), b(t0);
  a.on_link(sample(0), t0);
  b.on_link(sample(0), t0);
  for (int i = 1; i <= 100; ++i) a.on_link(sample(0), t0 + i * 10ms);  // 100 acks in 1 s
  b.on_link(sample(0), t0 + 1s);                                        // one ack at 1 s
  EXPECT_NEAR(*a.kbps(), 6000, 1e-6);  // doubled in kDoubleEvery
  EXPECT_NEAR(*b.kbps(), 6000, 1e-6);
}

TEST(TransferShare, TheQueueAtTheTargetHoldsItNearerGrowsFurtherShrinks) {
  TransferShare hold(t0), up(t0), down(t0);
  for (auto* s : {&hold, &up, &down}) s->on_link(sample(0), t0);
  for (int i = 1; i <= 20; ++i) {
    hold.on_link(sample(TransferShare::kTargetDelayMs), t0 + i * 50ms);
    up.on_link(sample(TransferShare::kTargetDelayMs / 2), t0 + i * 50ms);
    down.on_link(sample(TransferShare::kTargetDelayMs * 1.5), t0 + i * 50ms);
  }
  EXPECT_DOUBLE_EQ(*hold.kbps(), 3000);
  EXPECT_NEAR(*up.kbps(), 3000 * std::sqrt(2.0), 1e-6);  // half the full growth for 1 s
  EXPECT_LT(*down.kbps(), 3000 / 2.0);
}

TEST(TransferShare, AQuietViewerLetsTheTransferGrowUntilNoLimit) {
  TransferShare s(t0);
  s.on_link(sample(0), t0);
  s.on_progress(t0 + 100ms);  // acks are recent: nothing yet
  EXPECT_DOUBLE_EQ(*s.kbps(), 3000);
  Time t = t0 + TransferShare::kQuiet;
  for (int i = 0; i < 40 && s.kbps(); ++i) s.on_progress(t += 1s);
  EXPECT_FALSE(s.kbps());  // a LAN's worth: no limit at all
}

TEST(TransferShare, ALongGapCountsAsOneStep) {
  TransferShare s(t0);
  s.on_link(sample(0), t0);
  s.on_link(sample(0), t0 + 1h);
  EXPECT_NEAR(*s.kbps(), 6000, 1e-6);
}

// A transfer as LinkShares sees it: what it was last told.
struct FakeTransfer {
  std::optional<std::optional<uint64_t>> told;  // outer: told at all
  int calls = 0;
  LinkShares::Apply apply() {
    return [this](std::optional<uint64_t> bps) {
      told = bps;
      ++calls;
    };
  }
};

TEST(LinkShares, AnAddressWithoutAViewerHasNoLimit) {
  LinkShares shares;
  FakeTransfer t;
  shares.add_transfer("192.0.2.1", t.apply(), t0);
  ASSERT_TRUE(t.told);
  EXPECT_FALSE(*t.told);
  const auto v = shares.add_viewer("192.0.2.9", t0);  // another address
  shares.on_viewer_sample(v, sample(0), t0);
  EXPECT_FALSE(*t.told);
  EXPECT_EQ(shares.paced_transfers(), 0u);
}

TEST(LinkShares, TransfersAtAViewersAddressSplitItsShare) {
  LinkShares shares;
  const auto v = shares.add_viewer("192.0.2.1", t0);
  shares.on_viewer_sample(v, sample(0, 18000, 2000), t0);  // 16000 kbit/s spare: a share of 8000
  FakeTransfer a, b;
  const auto ia = shares.add_transfer("192.0.2.1", a.apply(), t0);
  EXPECT_EQ(*a.told, std::optional<uint64_t>(1'000'000));  // 8000 kbit/s in bytes per second
  shares.add_transfer("192.0.2.1", b.apply(), t0);
  EXPECT_EQ(*a.told, std::optional<uint64_t>(500'000));
  EXPECT_EQ(*b.told, std::optional<uint64_t>(500'000));
  EXPECT_EQ(shares.paced_transfers(), 2u);
  shares.remove_transfer(ia);
  EXPECT_EQ(*b.told, std::optional<uint64_t>(1'000'000));
  EXPECT_EQ(shares.transfers(), 1u);
}

TEST(LinkShares, SmallMovesAreNotPassedOnLargeOnesAre) {
  LinkShares shares;
  const auto v = shares.add_viewer("192.0.2.1", t0);
  shares.on_viewer_sample(v, sample(0), t0);
  FakeTransfer a;
  shares.add_transfer("192.0.2.1", a.apply(), t0);
  const int calls = a.calls;
  shares.on_viewer_sample(v, sample(0), t0 + 10ms);  // grows 0.7%: not worth a system call
  EXPECT_EQ(a.calls, calls);
  shares.on_viewer_sample(v, sample(60), t0 + 110ms);  // a queue: down by more than a quarter
  EXPECT_EQ(a.calls, calls + 1);
  EXPECT_LT(**a.told, 3000u * 1000 / 8);
}

TEST(LinkShares, TheLastViewerLeavingLiftsTheLimit) {
  LinkShares shares;
  const auto v = shares.add_viewer("192.0.2.1", t0);
  shares.on_viewer_sample(v, sample(60), t0);
  FakeTransfer a;
  const auto ia = shares.add_transfer("192.0.2.1", a.apply(), t0);
  EXPECT_TRUE(*a.told);
  shares.remove_viewer(v);
  EXPECT_FALSE(*a.told);
  EXPECT_FALSE(shares.share_kbps("192.0.2.1"));
  shares.remove_transfer(ia);
  shares.remove_transfer(ia);  // twice: nothing
  shares.remove_viewer(v);
  EXPECT_EQ(shares.transfers(), 0u);
}

TEST(LinkShares, ProgressWhileTheScreenIsStillGrowsTheShare) {
  LinkShares shares;
  const auto v = shares.add_viewer("192.0.2.1", t0);
  shares.on_viewer_sample(v, sample(0), t0);
  FakeTransfer a;
  const auto ia = shares.add_transfer("192.0.2.1", a.apply(), t0);
  const uint64_t first = **a.told;
  shares.on_transfer_progress(ia, t0 + 1s);
  EXPECT_EQ(**a.told, first * 2);
}

}  // namespace
}  // namespace voxl::stream
