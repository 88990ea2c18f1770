// The two clocks stamps are read from: the wall clock in microseconds (what
// a viewer's clock is compared with) and spans of the steady clock.
//
// Pure functions; any thread.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace voxl {

// Microseconds since the Unix epoch, now.
inline uint64_t wall_clock_us() {
  return uint64_t(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// Microseconds from `a` to `b`, 0 when `b` is earlier.
inline uint32_t micros_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return uint32_t(std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::microseconds>(b - a).count()));
}

}  // namespace voxl
