#include "app/guarded_run.h"

#include <exception>
#include <string>

namespace voxl::app {

bool FaultBudget::take(Clock::time_point now) {
  while (!recent_.empty() && now - recent_.front() >= window_) recent_.pop_front();
  recent_.push_back(now);
  if (recent_.size() > max_) {
    recent_.pop_front();
    return false;
  }
  return true;
}

bool run_guarded(boost::asio::io_context& io, const Logger& log, size_t max_faults) {
  FaultBudget budget(max_faults, std::chrono::seconds(1));
  for (;;) {
    std::string what;
    try {
      io.run();
      return true;
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
      what = "an unknown exception";
    }
    if (!budget.take(FaultBudget::Clock::now())) {
      log->critical("the event loop failed more than {} times within a second, the last time with: {}; stopping",
                    max_faults, what);
      return false;
    }
    log->error("a handler on the event loop failed: {}; carrying on", what);
  }
}

}  // namespace voxl::app
