#include "link_profiles.h"

#include <gtest/gtest.h>

namespace voxl::bench {
namespace {

using namespace std::chrono_literals;

TEST(LinkProfiles, EachNamedProfileIsThere) {
  for (const char* name : {"wifi", "lte", "lossy-long", "drop"}) {
    const auto p = find_link_profile(name);
    ASSERT_TRUE(p) << name;
    EXPECT_FALSE(p->models.empty());
    EXPECT_GT(p->down.queue_bytes, 0u);
  }
  EXPECT_FALSE(find_link_profile("dialup"));
  const auto lte = find_link_profile("lte");
  EXPECT_EQ(lte->down.mbps, 10);
  EXPECT_EQ(lte->down.delay * 2, 60ms);
  EXPECT_GT(lte->down.mean_burst, 1);
  const auto drop = find_link_profile("drop");
  ASSERT_EQ(drop->down.schedule.size(), 2u);
  EXPECT_EQ(drop->down.schedule[0].mbps, 2);
  EXPECT_EQ(drop->down.schedule[1].mbps, 20);
}

TEST(LinkProfiles, SchedulesParseAndBadOnesSayWhy) {
  std::string error;
  const auto steps = parse_rate_schedule("10:2,25.5:20", error);
  ASSERT_TRUE(steps) << error;
  ASSERT_EQ(steps->size(), 2u);
  EXPECT_EQ((*steps)[0].at, 10s);
  EXPECT_EQ((*steps)[0].mbps, 2);
  EXPECT_EQ((*steps)[1].at, 25500ms);
  EXPECT_TRUE(parse_rate_schedule("", error)->empty());
  for (const char* bad : {"10", "10:", ":2", "10:2,", "10:2,5:3", "10:2,10:3", "-1:2", "1:-2", "1:2x", "a:b", "nan:1"}) {
    error.clear();
    EXPECT_FALSE(parse_rate_schedule(bad, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

}  // namespace
}  // namespace voxl::bench
