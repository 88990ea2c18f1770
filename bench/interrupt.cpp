#include "interrupt.h"

#include <signal.h>

#include <cstring>

namespace voxl::bench {

namespace {

sigset_t interrupt_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

}  // namespace

void block_interrupts() {
  const sigset_t set = interrupt_signals();
  if (const int err = pthread_sigmask(SIG_BLOCK, &set, nullptr); err != 0)
    throw std::runtime_error(std::string("cannot block interrupt signals: ") + std::strerror(err));
}

void throw_if_interrupted() {
  sigset_t pending;
  if (sigpending(&pending) != 0) return;
  const sigset_t watched = interrupt_signals();
  for (int sig = 1; sig < NSIG; ++sig)
    if (sigismember(&watched, sig) == 1 && sigismember(&pending, sig) == 1)
      throw Interrupted(std::string("interrupted by ") + strsignal(sig));
}

}  // namespace voxl::bench
