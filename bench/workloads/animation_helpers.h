// What the animated X11 workloads (voxl-demo, voxl-bench-workload) share: a
// colour wheel to step content through, and the absolute-deadline
// arithmetic that paces their frames with clock_nanosleep(TIMER_ABSTIME)
// so a slow frame never shifts every later one.
//
// Pure functions; any thread.
#pragma once

#include <time.h>

#include <cstdint>

namespace voxl::bench {

// Fully saturated colour `step` of a 1536-step wheel (6 segments of 256:
// red, yellow, green, cyan, blue, magenta and back), as 0xRRGGBB. Any step,
// negative ones included, lands on the wheel.
inline uint32_t hue(int step) {
  const int h = ((step % 1536) + 1536) % 1536, x = h % 256;
  const int seg = h / 256;
  const int r = seg == 0 || seg == 5 ? 255 : seg == 1 ? 255 - x : seg == 4 ? x : 0;
  const int g = seg == 0 ? x : seg == 1 || seg == 2 ? 255 : seg == 3 ? 255 - x : 0;
  const int b = seg == 2 ? x : seg == 3 || seg == 4 ? 255 : seg == 5 ? 255 - x : 0;
  return uint32_t(r) << 16 | uint32_t(g) << 8 | uint32_t(b);
}

// Moves `t` forward by `ns` (>= 0) nanoseconds, keeping tv_nsec normalised.
inline void add_ns(timespec& t, long ns) {
  t.tv_nsec += ns;
  while (t.tv_nsec >= 1000000000L) {
    t.tv_nsec -= 1000000000L;
    ++t.tv_sec;
  }
}

}  // namespace voxl::bench
