// Ctrl-C without a signal handler. Once the private Xvfb runs, SIGINT,
// SIGTERM and SIGHUP are blocked and the measurement loops poll for them, so
// an interrupted run still unwinds: the Xvfb is stopped and its framebuffer
// segment removed. Dying by the signal instead would leave that segment
// behind, since Xvfb does not remove it when it is killed. A signal during
// the Xvfb's start-up still kills the benchmark: blocking earlier would hand
// the blocked mask to the Xvfb, which would then ignore the SIGTERM meant to
// stop it.
#pragma once

#include <stdexcept>

namespace voxl::bench {

class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Exit status of an interrupted run, as a shell reports death by SIGINT.
inline constexpr int kInterruptedExitCode = 130;

// Blocks the signals in the calling (main) thread for the rest of the run;
// call it after starting any child process, which would inherit the mask.
void block_interrupts();

// Throws Interrupted when one of those signals is pending.
void throw_if_interrupted();

}  // namespace voxl::bench
