// One /wait request: its parameters, parsed from the query, and the rules
// that decide when it is answered and what it says. Pure logic, driven by
// the caller's clock; loop thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "endpoints/change_log.h"
#include "net/query.h"

namespace voxl::endpoints {

struct WaitSpec {
  bool change = false;  // answer at the first change instead of when still
  std::chrono::milliseconds idle{300};
  std::chrono::milliseconds timeout{10000};
  std::optional<Rect> region;  // nullopt: the whole screen
  std::optional<uint64_t> since;
};

struct WaitOutcome {
  bool changed = false;
  bool timed_out = false;
  uint64_t seq = 0;
  int64_t waited_ms = 0;
  std::string json() const;  // {"changed":..,"timed_out":..,"seq":..,"waited_ms":..}
};

// The longest timeout (and idle) a /wait may ask for unless told otherwise
// (--max-wait-seconds): a waiter holds a connection and a timer that long.
constexpr std::chrono::milliseconds kDefaultMaxWait{300 * 1000};

// Parses idle, change, region, timeout and since; `current_seq` bounds
// since, `max_wait` bounds timeout and idle (the error then names
// --max-wait-seconds).
std::optional<WaitSpec> parse_wait(const net::Query& q, uint64_t current_seq, net::ParamError& error,
                                   std::chrono::milliseconds max_wait = kDefaultMaxWait);

class Waiter {
 public:
  // `log` is as of the request (every change drawn before it already in it).
  Waiter(const WaitSpec& spec, const ChangeLog& log, Clock::time_point start);

  // A batch of changes seen at `t`.
  void on_change(const std::vector<Rect>& rects, Clock::time_point t);
  // The answer when the wait is over at `now`, else nullopt.
  std::optional<WaitOutcome> check(Clock::time_point now, uint64_t seq) const;
  // When check() could next answer (if no change comes first).
  Clock::time_point next_deadline() const;

 private:
  WaitSpec spec_;
  std::optional<Rect> watched_;
  Clock::time_point start_;
  Clock::time_point last_change_;
  bool changed_ = false;
  bool changed_before_ = false;  // after `since`, before the request
};

}  // namespace voxl::endpoints
