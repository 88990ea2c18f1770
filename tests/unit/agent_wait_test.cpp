// The pure logic behind /wait and /screenshot's parameters: query parsing,
// the change log that answers since=, and when a waiter is answered.
#include <gtest/gtest.h>

#include "endpoints/change_log.h"
#include "net/query.h"
#include "endpoints/wait_spec.h"

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

using std::chrono::milliseconds;

net::Query parse(const std::string& s) {
  net::ParamError e;
  auto q = net::Query::parse(s, e);
  EXPECT_TRUE(q) << e.parameter << ": " << e.message;
  return q.value_or(net::Query{});
}

TEST(AgentQuery, DecodesFlagsValuesAndRects) {
  const net::Query q = parse("change&idle=250&region=16%2C32,8,4&x=a+b");
  EXPECT_TRUE(q.has("change"));
  net::ParamError e;
  bool change = false;
  EXPECT_TRUE(q.flag("change", change, e));
  EXPECT_TRUE(change);
  int64_t idle = 0;
  EXPECT_TRUE(q.integer("idle", 0, 1000, idle, e));
  EXPECT_EQ(idle, 250);
  std::optional<Rect> r;
  EXPECT_TRUE(q.rect("region", r, e));
  EXPECT_EQ(r, (Rect{16, 32, 8, 4}));
  EXPECT_EQ(q.unknown({"change", "idle", "region"}), "x");
}

TEST(AgentQuery, RejectsBadValuesNamingTheParameter) {
  net::ParamError e;
  EXPECT_FALSE(net::Query::parse("idle=1&idle=2", e));
  EXPECT_EQ(e.parameter, "idle");
  EXPECT_FALSE(net::Query::parse("a=%zz", e));

  const net::Query q = parse("idle=-5&timeout=abc&region=1,2,0,4&r2=1,2,3&since=-1&change=maybe");
  int64_t v = 0;
  EXPECT_FALSE(q.integer("idle", 0, 100, v, e));
  EXPECT_EQ(e.parameter, "idle");
  EXPECT_FALSE(q.integer("timeout", 0, 100, v, e));
  EXPECT_EQ(e.parameter, "timeout");
  std::optional<Rect> r;
  EXPECT_FALSE(q.rect("region", r, e));
  EXPECT_EQ(e.parameter, "region");
  EXPECT_FALSE(q.rect("r2", r, e));
  uint64_t u = 0;
  EXPECT_FALSE(q.unsigned_integer("since", u, e));
  EXPECT_EQ(e.parameter, "since");
  bool b = false;
  EXPECT_FALSE(q.flag("change", b, e));
  EXPECT_EQ(e.parameter, "change");
}

TEST(AgentWaitSpec, DefaultsAndLimits) {
  net::ParamError e;
  auto s = parse_wait(parse(""), 7, e);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->change);
  EXPECT_EQ(s->idle, milliseconds(300));
  EXPECT_EQ(s->timeout, milliseconds(10000));
  EXPECT_FALSE(s->region);
  EXPECT_FALSE(s->since);

  EXPECT_FALSE(parse_wait(parse("since=8"), 7, e));
  EXPECT_EQ(e.parameter, "since");
  EXPECT_TRUE(parse_wait(parse("since=7"), 7, e));
  EXPECT_FALSE(parse_wait(parse("bogus=1"), 7, e));
  EXPECT_EQ(e.parameter, "bogus");
  EXPECT_FALSE(parse_wait(parse("change&idle=5"), 7, e));
  EXPECT_EQ(e.parameter, "idle");
}

TEST(AgentWaitSpec, LongestWaitIsTheFlagsAndTheErrorNamesIt) {
  net::ParamError e;
  auto s = parse_wait(parse("timeout=300000"), 7, e);
  ASSERT_TRUE(s) << e.message;
  EXPECT_EQ(s->timeout, milliseconds(300000));
  EXPECT_FALSE(parse_wait(parse("timeout=300001"), 7, e));
  EXPECT_EQ(e.parameter, "timeout");
  EXPECT_NE(e.message.find("--max-wait-seconds=300"), std::string::npos) << e.message;
  EXPECT_FALSE(parse_wait(parse("idle=86400000"), 7, e));
  EXPECT_EQ(e.parameter, "idle");
  EXPECT_NE(e.message.find("--max-wait-seconds"), std::string::npos) << e.message;

  // A larger cap from the flag.
  s = parse_wait(parse("timeout=3600000&idle=3600000"), 7, e, std::chrono::hours(1));
  ASSERT_TRUE(s) << e.message;
  EXPECT_EQ(s->timeout, std::chrono::hours(1));
  EXPECT_FALSE(parse_wait(parse("timeout=3600001"), 7, e, std::chrono::hours(1)));
  EXPECT_NE(e.message.find("--max-wait-seconds=3600"), std::string::npos) << e.message;
}

TEST(AgentChangeLog, BlockAlignment) {
  EXPECT_EQ(block_aligned({17, 3, 1, 1}), (Rect{16, 0, 16, 16}));
  EXPECT_EQ(block_aligned({0, 0, 16, 16}), (Rect{0, 0, 16, 16}));
  EXPECT_EQ(block_aligned({15, 15, 2, 2}), (Rect{0, 0, 32, 32}));
}

TEST(AgentChangeLog, SinceIsAnsweredPerRegion) {
  ChangeLog log;
  EXPECT_EQ(log.add({{0, 0, 10, 10}}), 1u);
  EXPECT_EQ(log.add({{100, 100, 10, 10}}), 2u);
  EXPECT_TRUE(log.changed_since(0, std::nullopt));
  EXPECT_TRUE(log.changed_since(1, std::nullopt));
  EXPECT_FALSE(log.changed_since(2, std::nullopt));
  // Since 1 only the second batch counts: it is outside (0,0,20,20)...
  EXPECT_FALSE(log.changed_since(1, Rect{0, 0, 20, 20}));
  // ...but inside the blocks of a region that ends just short of it.
  EXPECT_TRUE(log.changed_since(1, Rect{90, 90, 8, 8}));  // 90..97: blocks 80..111
  EXPECT_TRUE(log.changed_since(0, Rect{0, 0, 20, 20}));
}

TEST(AgentChangeLog, ForgottenBatchesCountAsChanged) {
  ChangeLog log;
  for (size_t i = 0; i < ChangeLog::kKeptBatches + 10; ++i) log.add({{500, 500, 1, 1}});
  EXPECT_TRUE(log.changed_since(3, Rect{0, 0, 16, 16}));  // too old to know: yes
  EXPECT_FALSE(log.changed_since(log.seq() - 5, Rect{0, 0, 16, 16}));
}

TEST(AgentWaiter, IdleCountsFromTheRequestAndFromEachChange) {
  ChangeLog log;
  const auto t0 = Clock::time_point{} + std::chrono::hours(1);
  WaitSpec spec;  // idle 300, timeout 10000
  Waiter w(spec, log, t0);
  EXPECT_EQ(w.next_deadline(), t0 + milliseconds(300));
  EXPECT_FALSE(w.check(t0 + milliseconds(299), 0));
  w.on_change({{0, 0, 5, 5}}, t0 + milliseconds(200));
  EXPECT_FALSE(w.check(t0 + milliseconds(300), 1));
  EXPECT_EQ(w.next_deadline(), t0 + milliseconds(500));
  const auto o = w.check(t0 + milliseconds(500), 1);
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->changed);
  EXPECT_FALSE(o->timed_out);
  EXPECT_EQ(o->seq, 1u);
  EXPECT_EQ(o->waited_ms, 500);
  EXPECT_EQ(o->json(), R"({"changed":true,"timed_out":false,"seq":1,"waited_ms":500})");
}

TEST(AgentWaiter, ChangeModeAnswersAtTheFirstChangeInItsRegion) {
  ChangeLog log;
  const auto t0 = Clock::time_point{} + std::chrono::hours(1);
  WaitSpec spec;
  spec.change = true;
  spec.region = Rect{0, 0, 100, 100};
  spec.timeout = milliseconds(1000);
  Waiter w(spec, log, t0);
  w.on_change({{200, 200, 5, 5}}, t0 + milliseconds(10));  // outside
  EXPECT_FALSE(w.check(t0 + milliseconds(20), 1));
  w.on_change({{110, 0, 5, 5}}, t0 + milliseconds(30));  // in the block column 96..112
  const auto o = w.check(t0 + milliseconds(30), 2);
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->changed);
}

TEST(AgentWaiter, TimeoutAndSince) {
  ChangeLog log;
  log.add({{0, 0, 1, 1}});
  const auto t0 = Clock::time_point{} + std::chrono::hours(1);
  WaitSpec spec;
  spec.change = true;
  spec.timeout = milliseconds(50);
  Waiter quiet(spec, log, t0);
  EXPECT_EQ(quiet.next_deadline(), t0 + milliseconds(50));
  const auto o = quiet.check(t0 + milliseconds(50), 1);
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->timed_out);
  EXPECT_FALSE(o->changed);

  spec.since = 0;  // older than the change: answered at once
  Waiter older(spec, log, t0);
  ASSERT_TRUE(older.check(t0, 1));
  EXPECT_TRUE(older.check(t0, 1)->changed);
  spec.since = 1;  // the current seq: waits
  Waiter current(spec, log, t0);
  EXPECT_FALSE(current.check(t0, 1));
}

}  // namespace
}  // namespace voxl::endpoints
