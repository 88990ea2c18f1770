#include <gtest/gtest.h>

#include "base/rate_limit.h"

namespace voxl {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

TEST(RateLimit, OnePerIntervalAndCountsTheRest) {
  RateLimit limit(5s);
  const auto t0 = RateLimit::Clock::time_point() + 100s;
  EXPECT_TRUE(limit.allow(t0));
  EXPECT_EQ(limit.suppressed(), 0u);
  EXPECT_FALSE(limit.allow(t0 + 1s));
  EXPECT_FALSE(limit.allow(t0 + 4s));
  EXPECT_TRUE(limit.allow(t0 + 5s));
  EXPECT_EQ(limit.suppressed(), 2u);
  EXPECT_TRUE(limit.allow(t0 + 20s));
  EXPECT_EQ(limit.suppressed(), 0u);
}

}  // namespace
}  // namespace voxl
