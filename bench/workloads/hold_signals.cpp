#include "hold_signals.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>

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

bool HoldSignals::wait_for_move(int display_fd, const std::function<bool()>& read_display) {
  if (fd_ < 0) return false;
  for (;;) {
    pollfd p[2] = {{fd_, POLLIN, 0}, {display_fd, POLLIN, 0}};
    if (::poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (p[1].revents && !read_display()) return false;
    if (p[0].revents & POLLIN) {
      signalfd_siginfo info;
      bool move = false;
      while (::read(fd_, &info, sizeof info) == ssize_t(sizeof info)) move = info.ssi_signo == SIGUSR2;
      if (move) return true;
    }
  }
}

}  // namespace voxl::bench
