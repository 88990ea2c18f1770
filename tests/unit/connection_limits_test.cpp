// The server's connection counts: the global and per-address caps, and
// tokens that give their place back wherever they end up.
#include <gtest/gtest.h>

#include <vector>

#include "net/connection_limits.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

using Refusal = ConnectionLimiter::Refusal;

TEST(ConnectionLimits, PerAddressCapLeavesOtherAddressesIn) {
  ConnectionLimiter limiter({10, 2});
  Refusal why{};
  auto a1 = limiter.admit("10.0.0.1", why);
  auto a2 = limiter.admit("10.0.0.1", why);
  EXPECT_TRUE(a1.held());
  EXPECT_TRUE(a2.held());
  auto a3 = limiter.admit("10.0.0.1", why);
  EXPECT_FALSE(a3.held());
  EXPECT_EQ(why, Refusal::kPerAddress);
  auto b = limiter.admit("10.0.0.2", why);
  EXPECT_TRUE(b.held());
  EXPECT_EQ(why, Refusal::kNone);
  EXPECT_EQ(limiter.open(), 3u);
  EXPECT_EQ(limiter.open_from("10.0.0.1"), 2u);
}

TEST(ConnectionLimits, TotalCapRefusesEveryone) {
  ConnectionLimiter limiter({3, 3});
  Refusal why{};
  std::vector<ConnectionToken> held;
  for (const char* a : {"a", "b", "c"}) held.push_back(limiter.admit(a, why));
  EXPECT_FALSE(limiter.admit("d", why).held());
  EXPECT_EQ(why, Refusal::kTotal);
  held.pop_back();
  EXPECT_EQ(limiter.open(), 2u);
  EXPECT_TRUE(limiter.admit("d", why).held());
  // ...and gave its place back at once, being a temporary.
  EXPECT_EQ(limiter.open(), 2u);
  EXPECT_EQ(limiter.open_from("d"), 0u);
}

TEST(ConnectionLimits, AMovedTokenCountsOnce) {
  ConnectionLimiter limiter({5, 5});
  Refusal why{};
  ConnectionToken t = limiter.admit("x", why);
  ConnectionToken moved = std::move(t);
  EXPECT_FALSE(t.held());  // NOLINT(bugprone-use-after-move): the point of the test
  EXPECT_TRUE(moved.held());
  EXPECT_EQ(limiter.open(), 1u);
  ConnectionToken other = limiter.admit("y", why);
  other = std::move(moved);  // y's place is given back, x's kept
  EXPECT_EQ(limiter.open(), 1u);
  EXPECT_EQ(limiter.open_from("x"), 1u);
  EXPECT_EQ(limiter.open_from("y"), 0u);
  other = ConnectionToken();
  EXPECT_EQ(limiter.open(), 0u);
}

TEST(ConnectionLimits, ATokenMayOutliveItsLimiter) {
  ConnectionToken t;
  {
    ConnectionLimiter limiter({1, 1});
    Refusal why{};
    t = limiter.admit("x", why);
  }
  EXPECT_TRUE(t.held());
  t = ConnectionToken();  // no use after free (ASan watches)
  EXPECT_FALSE(t.held());
}

}  // namespace
}  // namespace voxl::net
