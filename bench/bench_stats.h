// Timing helpers: collecting samples and summarising them, plus the
// memcpy floor every capture source is compared against.
#pragma once

#include <chrono>
#include <vector>

#include "base/geometry.h"
#include "interrupt.h"

namespace voxl::bench {

using Clock = std::chrono::steady_clock;

struct Timing {
  double mean_ms = 0;
  double p50_ms = 0;
  double p95_ms = 0;
  double p99_ms = 0;
};

// Mean and nearest-rank percentiles; all zero for no samples.
Timing summarize(std::vector<double> samples_ms);

double ms_since(Clock::time_point start);

// Calls `once` warmup + iterations times; `once` measures its own work and
// returns milliseconds, so it can keep checks out of the timed part. Keeps
// the timed runs' samples. Polls for Ctrl-C between calls.
template <class Once>
std::vector<double> collect(int warmup, int iterations, Once&& once) {
  std::vector<double> samples;
  samples.reserve(size_t(iterations));
  for (int i = 0; i < warmup + iterations; ++i) {
    throw_if_interrupted();
    const double ms = once();
    if (i >= warmup) samples.push_back(ms);
  }
  return samples;
}

// Copies `area` pixels row by row from a buffer laid out like a full-screen
// framebuffer (`screen` wide) into one laid out like a frame: the bytes a
// capture source must move at the very least.
Timing time_memcpy(Size area, Size screen, int warmup, int iterations);

}  // namespace voxl::bench
