// The waits between attempts to reach something that went away (a display
// server that restarts): `first`, then doubling up to `longest`, back to
// `first` after a success.
//
// Pure logic; one owner, not thread-safe.
#pragma once

#include <algorithm>
#include <chrono>

namespace voxl {

class Backoff {
 public:
  using Duration = std::chrono::steady_clock::duration;

  Backoff(Duration first, Duration longest) : first_(first), longest_(longest), next_(first) {}

  // The wait before the next attempt; the one after is twice as long.
  Duration next() {
    const Duration d = next_;
    next_ = std::min<Duration>(next_ * 2, longest_);
    return d;
  }
  void reset() { next_ = first_; }

 private:
  Duration first_;
  Duration longest_;
  Duration next_;
};

}  // namespace voxl
