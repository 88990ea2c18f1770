// The loop thread's last resort: io_context::run() again after a handler
// threw, so one faulty request or timer never ends the daemon (and the
// private Xvfb with every program in it). A burst of faults means the
// daemon itself is broken: then it gives up, and the caller exits with 1.
//
// Threads: run_guarded() runs the loop on the calling thread.
#pragma once

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstddef>
#include <deque>

#include "base/logging.h"

namespace voxl::app {

// Counts faults in a sliding window: more than `max` within `window` is
// too many. Pure logic on the caller's clock.
class FaultBudget {
 public:
  using Clock = std::chrono::steady_clock;
  FaultBudget(size_t max, Clock::duration window) : max_(max), window_(window) {}

  // Records a fault at `now`; false once there were more than `max` in the
  // window that ends at `now`.
  bool take(Clock::time_point now);

 private:
  size_t max_;
  Clock::duration window_;
  std::deque<Clock::time_point> recent_;  // at most max_ + 1 entries
};

inline constexpr size_t kMaxLoopFaultsPerSecond = 10;

// Runs `io` until it stops or runs out of work, logging each exception a
// handler lets out (error level) and running it again. Returns true when it
// ended normally, false when more than `max_faults` came within a second.
bool run_guarded(boost::asio::io_context& io, const Logger& log, size_t max_faults = kMaxLoopFaultsPerSecond);

}  // namespace voxl::app
