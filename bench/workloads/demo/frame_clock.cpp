#include "frame_clock.h"

#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <cmath>
#include <stdexcept>

namespace voxl::demo {

namespace {

int64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

}  // namespace

FrameClock::FrameClock(int fps) : window_start_ns_(now_ns()) {
  fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error("timerfd_create failed");
  const long period = 1000000000L / fps;
  itimerspec spec{};
  spec.it_interval.tv_sec = period / 1000000000L;
  spec.it_interval.tv_nsec = period % 1000000000L;
  spec.it_value = spec.it_interval;
  timerfd_settime(fd_, 0, &spec, nullptr);
}

FrameClock::~FrameClock() { close(fd_); }

void FrameClock::tick() {
  uint64_t expirations = 0;
  if (read(fd_, &expirations, sizeof expirations) != sizeof expirations) return;
  ++frame_;
  const int64_t now = now_ns(), elapsed = now - window_start_ns_;
  if (elapsed >= 1000000000) {
    measured_fps_ = int(std::lround(double(frame_ - window_start_frame_) * 1e9 / double(elapsed)));
    window_start_ns_ = now;
    window_start_frame_ = frame_;
  }
}

}  // namespace voxl::demo
