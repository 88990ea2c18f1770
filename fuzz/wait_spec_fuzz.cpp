// /wait's parameters (idle, change, region, timeout, since) and the waiter
// they configure. The input's first line is the query; the rest is a
// script of screen changes and clock ticks played against the waiter,
// whose answer must come by its own deadline and be valid JSON.
#include <fuzzer/FuzzedDataProvider.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "endpoints/change_log.h"
#include "net/query.h"
#include "endpoints/wait_spec.h"
#include "fuzz_check.h"
#include "net/endpoint.h"

namespace VOXL_TEST_FILE {

using namespace voxl::endpoints;
using std::chrono::milliseconds;

voxl::Rect screen_rect(FuzzedDataProvider& in) {
  // What a capturer reports: inside a desktop of at most 65535 pixels a side.
  const int x = in.ConsumeIntegralInRange<int>(0, 65534);
  const int y = in.ConsumeIntegralInRange<int>(0, 65534);
  return {x, y, in.ConsumeIntegralInRange<int>(1, 65535 - x), in.ConsumeIntegralInRange<int>(1, 65535 - y)};
}

void check_outcome(const WaitOutcome& o, uint64_t seq) {
  FUZZ_CHECK(o.seq == seq && o.waited_ms >= 0);
  const nlohmann::json j = voxl::fuzz::parse_json_or_abort(o.json());
  FUZZ_CHECK(j["changed"] == o.changed && j["timed_out"] == o.timed_out && j["seq"] == o.seq &&
             j["waited_ms"] == o.waited_ms);
}

}  // namespace

VOXL_FUZZ_TARGET(wait_spec) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const size_t nl = all.find('\n');
  const std::string_view query = all.substr(0, nl);
  const std::string_view rest = nl == std::string_view::npos ? std::string_view() : all.substr(nl + 1);
  FuzzedDataProvider in(reinterpret_cast<const uint8_t*>(rest.data()), rest.size());

  ChangeLog log;
  const size_t batches = in.ConsumeIntegralInRange<size_t>(0, 40);
  for (size_t i = 0; i < batches; ++i) {
    std::vector<voxl::Rect> rects(in.ConsumeIntegralInRange<size_t>(0, 40));
    for (auto& r : rects) r = screen_rect(in);
    log.add(std::move(rects));
  }

  voxl::net::ParamError e;
  const auto q = voxl::net::Query::parse(query, e);
  if (!q) return 0;
  const auto spec = parse_wait(*q, log.seq(), e);
  if (!spec) {
    const auto reply = voxl::net::json_error(400, e.parameter, e.parameter + " " + e.message);
    voxl::fuzz::parse_json_or_abort(reply.body);
    return 0;
  }
  FUZZ_CHECK(spec->idle >= milliseconds(0) && spec->idle <= kDefaultMaxWait);
  FUZZ_CHECK(spec->timeout >= milliseconds(0) && spec->timeout <= kDefaultMaxWait);
  FUZZ_CHECK(!spec->since || *spec->since <= log.seq());
  FUZZ_CHECK(!(spec->change && q->has("idle")));

  const Clock::time_point start{std::chrono::hours(1)};
  Waiter w(*spec, log, start);
  Clock::time_point now = start;
  FUZZ_CHECK(w.next_deadline() >= start && w.next_deadline() <= start + spec->timeout);
  while (in.remaining_bytes() > 0) {
    if (in.ConsumeBool()) {
      std::vector<voxl::Rect> rects(in.ConsumeIntegralInRange<size_t>(1, 8));
      for (auto& r : rects) r = screen_rect(in);
      log.add(rects);
      w.on_change(rects, now);
    }
    now += milliseconds(in.ConsumeIntegralInRange<int64_t>(0, 2 * kDefaultMaxWait.count() / 1000) *
                        (in.ConsumeBool() ? 1 : 1000));
    if (const auto o = w.check(now, log.seq())) {
      check_outcome(*o, log.seq());
      return 0;
    }
    FUZZ_CHECK(now - start < spec->timeout);
  }
  // Nothing more happens: the waiter must answer by its own deadline.
  const Clock::time_point deadline = w.next_deadline();
  FUZZ_CHECK(deadline <= start + spec->timeout);
  const auto o = w.check(std::max(deadline, now), log.seq());
  FUZZ_CHECK(o.has_value());
  check_outcome(*o, log.seq());
  return 0;
}
