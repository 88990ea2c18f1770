#include "net/auth_throttle.h"

#include <gtest/gtest.h>

#include <string>

namespace voxl::net {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = AuthThrottle::Clock;

const Clock::time_point t0{};

TEST(AuthThrottle, FirstFailuresAreFreeThenTheAddressIsBlocked) {
  AuthThrottle t;
  for (int i = 1; i < 5; ++i) {
    const auto f = t.record_failure("10.0.0.1", t0 + i * 1ms);
    EXPECT_EQ(f.failures, i);
    EXPECT_EQ(f.blocked, Clock::duration::zero()) << i;
  }
  EXPECT_EQ(t.blocked_for("10.0.0.1", t0 + 5ms), Clock::duration::zero());
  const auto f = t.record_failure("10.0.0.1", t0 + 5ms);
  EXPECT_EQ(f.blocked, 1s);
  EXPECT_EQ(t.blocked_for("10.0.0.1", t0 + 5ms), 1s);
  EXPECT_EQ(t.blocked_for("10.0.0.1", t0 + 505ms), 500ms);
  EXPECT_EQ(t.blocked_for("10.0.0.1", t0 + 1005ms), Clock::duration::zero());
  EXPECT_EQ(t.blocked_for("10.0.0.2", t0 + 5ms), Clock::duration::zero()) << "others are not blocked";
}

TEST(AuthThrottle, BlocksDoubleUpToTheCeiling) {
  AuthThrottle t;
  Clock::time_point now = t0;
  for (int i = 0; i < 4; ++i) t.record_failure("10.0.0.1", now);
  Clock::duration expected = 1s;
  for (int i = 0; i < 12; ++i) {
    const auto f = t.record_failure("10.0.0.1", now);
    EXPECT_EQ(f.blocked, std::min<Clock::duration>(expected, 5min)) << i;
    now += f.blocked;  // tries again right when the block ends
    expected *= 2;
  }
  EXPECT_EQ(t.record_failure("10.0.0.1", now).blocked, 5min);
}

TEST(AuthThrottle, AWindowWithoutBlocksStartsAfresh) {
  AuthThrottle t;
  for (int i = 0; i < 4; ++i) t.record_failure("10.0.0.1", t0);
  const auto f = t.record_failure("10.0.0.1", t0 + 61s);
  EXPECT_EQ(f.failures, 1);
  EXPECT_EQ(f.blocked, Clock::duration::zero());
}

TEST(AuthThrottle, ALongQuietSpellForgetsPastBlocks) {
  AuthThrottle t;
  for (int i = 0; i < 8; ++i) t.record_failure("10.0.0.1", t0 + i * 10min / 100);
  const auto later = t0 + 30min;
  const auto f = t.record_failure("10.0.0.1", later);
  EXPECT_EQ(f.failures, 1);
  EXPECT_EQ(f.blocked, Clock::duration::zero());
}

TEST(AuthThrottle, SuccessClearsTheAddress) {
  AuthThrottle t;
  for (int i = 0; i < 4; ++i) t.record_failure("10.0.0.1", t0);
  t.record_success("10.0.0.1");
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.record_failure("10.0.0.1", t0).failures, 1);
}

TEST(AuthThrottle, ConnectionClosesAfterAFewFailures) {
  AuthThrottle t;
  EXPECT_FALSE(t.record_failure("10.0.0.1", t0).close_connection);
  EXPECT_FALSE(t.record_failure("10.0.0.1", t0).close_connection);
  EXPECT_TRUE(t.record_failure("10.0.0.1", t0).close_connection);
}

TEST(AuthThrottle, LogLinesAreRateLimitedWithACount) {
  AuthThrottle t;
  auto f = t.record_failure("10.0.0.1", t0);
  EXPECT_TRUE(f.log);
  EXPECT_EQ(f.unlogged, 1);
  for (int i = 1; i <= 3; ++i) EXPECT_FALSE(t.record_failure("10.0.0.1", t0 + i * 1s).log);
  f = t.record_failure("10.0.0.1", t0 + 10s);
  EXPECT_TRUE(f.log);
  EXPECT_EQ(f.unlogged, 4);
  EXPECT_TRUE(t.record_failure("10.0.0.2", t0 + 10s).log) << "per address";
}

TEST(AuthThrottle, TableIsBoundedAndForgetsTheOldest) {
  AuthThrottle::Limits l;
  l.max_addresses = 3;
  AuthThrottle t(l);
  for (int i = 0; i < 5; ++i) t.record_failure("10.0.0.1", t0);  // blocked
  t.record_failure("10.0.0.2", t0 + 1s);
  t.record_failure("10.0.0.3", t0 + 2s);
  t.record_failure("10.0.0.4", t0 + 3s);
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t.blocked_for("10.0.0.1", t0 + 3s), Clock::duration::zero()) << "evicted";
}

TEST(AuthThrottle, Ipv6IsKeyedByItsSlash64) {
  EXPECT_EQ(AuthThrottle::key("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
  EXPECT_EQ(AuthThrottle::key("::ffff:10.0.0.1"), "10.0.0.1");
  EXPECT_EQ(AuthThrottle::key("10.0.0.1"), "10.0.0.1");
  EXPECT_EQ(AuthThrottle::key(""), "");
  AuthThrottle t;
  for (int i = 0; i < 5; ++i) t.record_failure("2001:db8:1:2::" + std::to_string(i + 1), t0);
  EXPECT_GT(t.blocked_for("2001:db8:1:2:ffff::1", t0), Clock::duration::zero());
}

}  // namespace
}  // namespace voxl::net
