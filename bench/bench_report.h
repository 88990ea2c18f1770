// The benchmark's results and their two renderings: a markdown table for
// people, JSON for scripts. Pure formatting; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "bench_stats.h"

namespace voxl::bench {

enum class GrabKind { kFull, kDamaged, kMemcpy };

struct ResultRow {
  Size capture;  // the capture area (the damaged rows grab 64x64 of it)
  GrabKind grab = GrabKind::kFull;
  std::string source;  // stable id for scripts: get-image, shm, xvfb-framebuffer, memcpy
  std::string label;   // for people: GetImage, ShmGetImage, ...
  int64_t pixels = 0;  // per grab
  Timing timing;
  // GetImage's mean over this row's mean, at the same size (full and memcpy rows).
  std::optional<double> speedup;
  // This row's mean over the same source's full-grab mean (damaged rows).
  std::optional<double> of_full;
};

// Pixels per second of a row, in millions; 0 when it has no time.
double mpix_per_s(const ResultRow& row);

struct BenchReport {
  std::string display;
  std::string server;  // what that display is, e.g. "private Xvfb 3840x2160 (-shmem)"
  Size screen;
  int warmup = 0;
  int iterations = 0;
  std::vector<std::string> sources;  // how each capturer described its pixel source
  std::vector<std::string> notes;
  std::vector<ResultRow> rows;
};

std::string to_markdown(const BenchReport& report);
std::string to_json(const BenchReport& report);

}  // namespace voxl::bench
