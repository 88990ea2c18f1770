// Back-off for clients that keep presenting wrong credentials. Per
// address (IPv6 by its /64, which one host usually owns whole): the first
// few failures in a window are free; from then on each failure blocks the
// address for a time that doubles up to a ceiling. Also rate-limits the
// log lines about failures. The table is bounded: when full, the address
// seen longest ago is forgotten.
//
// Pure: the time comes in as an argument, nothing reads a clock. Not
// thread-safe; the server uses one on its loop thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

namespace voxl::net {

class AuthThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  struct Limits {
    int free_failures = 5;                            // per window, before any block
    Clock::duration window = std::chrono::minutes(1);
    Clock::duration first_block = std::chrono::seconds(1);
    Clock::duration max_block = std::chrono::minutes(5);
    // A connection is closed once its address has this many failures in the window.
    int close_after = 3;
    Clock::duration log_interval = std::chrono::seconds(10);
    size_t max_addresses = 4096;
  };

  struct Failure {
    int failures = 0;               // in the current window
    Clock::duration blocked{};      // from now; zero when not blocked
    bool close_connection = false;  // failures >= close_after
    bool log = false;               // write a log line for this one
    int unlogged = 0;               // failures since the last line, this one included
  };

  AuthThrottle() : AuthThrottle(Limits{}) {}
  explicit AuthThrottle(Limits limits) : limits_(limits) {}

  // How long `address` must still wait; zero when it may try now.
  Clock::duration blocked_for(std::string_view address, Clock::time_point now) const;
  Failure record_failure(std::string_view address, Clock::time_point now);
  // A good credential: the address starts afresh.
  void record_success(std::string_view address);

  size_t size() const { return table_.size(); }
  const Limits& limits() const { return limits_; }

  // The table's key: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4
  // form), IPv6 masked to its /64, anything else as given.
  static std::string key(std::string_view address);

 private:
  struct Entry {
    int failures = 0;
    Clock::time_point window_start{};
    Clock::time_point last_seen{};
    Clock::time_point blocked_until{};
    int blocks = 0;  // blocks so far: the next lasts first_block << blocks
    Clock::time_point last_log{};
    bool logged = false;
    int unlogged = 0;
  };

  void evict_oldest();

  Limits limits_;
  std::unordered_map<std::string, Entry> table_;
};

}  // namespace voxl::net
