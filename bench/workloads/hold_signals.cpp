#include "hold_signals.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace voxl::bench {

HoldSignals::HoldSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  sigaddset(&set, SIGUSR2);
  sigprocmask(SIG_BLOCK, &set, nullptr);
  fd_ = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

HoldSignals::~HoldSignals() {
  if (fd_ >= 0) ::close(fd_);
}

bool HoldSignals::hold_requested() {
  bool hold = false;
  signalfd_siginfo info;
  while (fd_ >= 0 && ::read(fd_, &info, sizeof info) == ssize_t(sizeof info))
    hold = info.ssi_signo == SIGUSR1;
  return hold;
}

bool HoldSignals::wait_for_move(xcb_connection_t* c) {
  if (fd_ < 0) return false;
  for (;;) {
    pollfd p[2] = {{fd_, POLLIN, 0}, {xcb_get_file_descriptor(c), POLLIN, 0}};
    if (::poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    // The display only matters when it goes away.
    if (p[1].revents) {
      while (xcb_generic_event_t* e = xcb_poll_for_event(c)) std::free(e);
      if (xcb_connection_has_error(c)) return false;
    }
    if (p[0].revents & POLLIN) {
      signalfd_siginfo info;
      bool move = false;
      while (::read(fd_, &info, sizeof info) == ssize_t(sizeof info)) move = info.ssi_signo == SIGUSR2;
      if (move) return true;
    }
  }
}

}  // namespace voxl::bench
