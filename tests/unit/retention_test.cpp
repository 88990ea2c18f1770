// Which recorded sessions and segments the retention rules remove.
#include <gtest/gtest.h>

#include "sessions/retention.h"

namespace voxl::sessions {
namespace {

constexpr int64_t kDay = 86400 * 1000;
constexpr int64_t kNow = 100 * kDay;

StoredSession session(std::string id, std::vector<std::pair<uint64_t, int64_t>> segments) {
  StoredSession s;
  s.id = std::move(id);
  s.other_bytes = 100;
  int i = 1;
  for (const auto& [bytes, modified] : segments) s.segments.push_back({i++, bytes, modified});
  return s;
}

TEST(Retention, ASessionWithNoSegmentKeepsItsEventsUntilTheRulesTakeIt) {
  StoredSession empty = session("20251202T000000Z-000002", {});
  empty.modified_ms = kNow - 40 * kDay;
  std::vector<StoredSession> all = {session("20251201T000000Z-000001", {{1000, kNow}}), empty,
                                    session("20251203T000000Z-000003", {})};
  EXPECT_TRUE(plan_retention(all, "20251203T000000Z-000003", kNow, {}).empty()) << "no rules: everything stays";
  RetentionRules rules;
  rules.max_age_ms = 30 * kDay;
  all[2].modified_ms = kNow - 60 * kDay;  // the live one, however old its files
  const auto out = plan_retention(all, "20251203T000000Z-000003", kNow, rules);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, Removal::Kind::kSession);
  EXPECT_EQ(out[0].id, "20251202T000000Z-000002");
}

TEST(Retention, OldSegmentsGoAndASessionLeftEmptyGoesWhole) {
  std::vector<StoredSession> all = {
      session("20251201T000000Z-000001", {{1000, kNow - 40 * kDay}, {1000, kNow - 31 * kDay}}),
      session("20251202T000000Z-000002", {{1000, kNow - 31 * kDay}, {1000, kNow - 2 * kDay}})};
  RetentionRules rules;
  rules.max_age_ms = 30 * kDay;
  const auto out = plan_retention(all, "", kNow, rules);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].kind, Removal::Kind::kSession);
  EXPECT_EQ(out[0].id, "20251201T000000Z-000001");
  EXPECT_EQ(out[0].why, "older than 30 days");
  EXPECT_EQ(out[1].kind, Removal::Kind::kSegment);
  EXPECT_EQ(out[1].id, "20251202T000000Z-000002");
  EXPECT_EQ(out[1].segment, 1);
}

TEST(Retention, TheSizeLimitTakesTheOldestFirstTheLiveSessionsToo) {
  std::vector<StoredSession> all = {session("20251203T000000Z-000003", {{400, kNow}, {400, kNow}}),
                                    session("20251201T000000Z-000001", {{400, kNow}})};
  RetentionRules rules;
  rules.max_bytes = 700;  // 1200 of segments and 200 of heads and events
  const auto out = plan_retention(all, "20251203T000000Z-000003", kNow, rules);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].kind, Removal::Kind::kSession) << "given in any order, the oldest goes first";
  EXPECT_EQ(out[0].id, "20251201T000000Z-000001");
  EXPECT_EQ(out[1].kind, Removal::Kind::kSegment);
  EXPECT_EQ(out[1].id, "20251203T000000Z-000003");
  EXPECT_EQ(out[1].segment, 1) << "the live session keeps its newest segment and itself";
}

TEST(Retention, AFinishedSessionsUnfinishedSegmentGoes) {
  StoredSession crashed = session("20251201T000000Z-000001", {{1000, kNow}});
  crashed.leftovers = {"0002.mp4.part"};
  StoredSession live = session("20251202T000000Z-000002", {});
  live.leftovers = {"0001.mp4.part"};
  const auto out = plan_retention({crashed, live}, live.id, kNow, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, Removal::Kind::kLeftover);
  EXPECT_EQ(out[0].file, "0002.mp4.part") << "the live session's part is the segment being written";
}

}  // namespace
}  // namespace voxl::sessions
