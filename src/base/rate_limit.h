// Lets one event through per interval and counts the ones held back, for
// log lines a client can provoke at will (refused connections, faults).
// Pure logic on the caller's clock; one owner, no locking.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace voxl {

class RateLimit {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RateLimit(Clock::duration interval = std::chrono::seconds(5)) : interval_(interval) {}

  // True when the event at `now` may be logged; then suppressed() says how
  // many were held back since the last one that was.
  bool allow(Clock::time_point now = Clock::now()) {
    if (last_ && now - *last_ < interval_) {
      ++held_;
      return false;
    }
    last_ = now;
    reported_ = held_;
    held_ = 0;
    return true;
  }
  uint64_t suppressed() const { return reported_; }

 private:
  Clock::duration interval_;
  std::optional<Clock::time_point> last_;
  uint64_t held_ = 0;
  uint64_t reported_ = 0;
};

}  // namespace voxl
