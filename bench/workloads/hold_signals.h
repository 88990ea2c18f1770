// The workloads' "hold still" switch, for bench/run's still measurement:
// SIGUSR1 stops the motion after the frame being drawn (the picture stays
// as it is), SIGUSR2 starts it again. The signals arrive through a
// signalfd, so a held workload sleeps in poll() and costs nothing. For the
// X11 and the Wayland workload alike.
//
// Not thread-safe: construct it on the main thread before any other thread
// starts (it blocks the two signals for the process). Owns its fd.
#pragma once

#include <functional>

namespace voxl::bench {

class HoldSignals {
 public:
  HoldSignals();
  ~HoldSignals();
  HoldSignals(const HoldSignals&) = delete;
  HoldSignals& operator=(const HoldSignals&) = delete;

  // True when a SIGUSR1 has arrived since the last call (a SIGUSR2 after
  // it cancels it). Never blocks.
  bool hold_requested();
  // Blocks until SIGUSR2 (true) or until the display goes away (false).
  // Whenever the display's connection (`display_fd`) turns readable,
  // `read_display` reads what came and says whether it is still there.
  bool wait_for_move(int display_fd, const std::function<bool()>& read_display);

 private:
  int fd_ = -1;
};

}  // namespace voxl::bench
