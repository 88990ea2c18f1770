#include "bench_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "capture/frame.h"
#include "capture/frame_pool.h"

namespace voxl::bench {

namespace {

// The smallest sample with at least `p` percent of the samples at or below it.
double percentile(const std::vector<double>& sorted, double p) {
  const double rank = std::ceil(p / 100.0 * double(sorted.size()));
  const size_t index = size_t(std::max(rank, 1.0)) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

// Tells the optimiser that `p` is read by someone it cannot see, so copies
// into it are never dropped or merged across iterations.
void keep_alive(const void* p) { __asm__ __volatile__("" : : "r"(p) : "memory"); }

}  // namespace

Timing summarize(std::vector<double> samples_ms) {
  if (samples_ms.empty()) return {};
  std::sort(samples_ms.begin(), samples_ms.end());
  Timing t;
  const double total = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0);
  t.mean_ms = total / double(samples_ms.size());
  t.p50_ms = percentile(samples_ms, 50);
  t.p95_ms = percentile(samples_ms, 95);
  t.p99_ms = percentile(samples_ms, 99);
  return t;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Timing time_memcpy(Size area, Size screen, int warmup, int iterations) {
  const size_t src_stride = size_t(screen.width) * capture::kBytesPerPixel;
  const size_t dst_stride = size_t(capture::aligned_stride(area.width));
  const size_t row_bytes = size_t(area.width) * capture::kBytesPerPixel;
  // Filled (not just allocated) so every page is real memory, as in a
  // framebuffer; untouched pages would all read from the shared zero page.
  std::vector<uint8_t> src(src_stride * size_t(screen.height));
  for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 131 + (i >> 12));
  std::vector<uint8_t> dst(dst_stride * size_t(area.height), 0);
  auto once = [&] {
    const auto start = Clock::now();
    for (int y = 0; y < area.height; ++y)
      std::memcpy(dst.data() + size_t(y) * dst_stride, src.data() + size_t(y) * src_stride,
                  row_bytes);
    keep_alive(dst.data());
    return ms_since(start);
  };
  return summarize(collect(warmup, iterations, once));
}

}  // namespace voxl::bench
