// What the benchmark client measures: for every picture it decodes, the
// marker counter in it and when it was decoded; at the end, joined with the
// workload's draw log, the frame rate (distinct counters per second, mean
// and worst whole second), the draw -> decoded latency (p50, p99), the
// freezes (gaps over 250 ms without a new frame, and the longest gap) and
// the latency over time (the worst of each 100 ms, from the window's start
// in Unix time), from which a run on a changing link reads how long the
// latency took to come back after each change.
//
// Threads: one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "marker/marker.h"

namespace voxl::bench {

class FrameRecorder {
 public:
  explicit FrameRecorder(int cell) : cell_(cell) {}

  // Starts the measured window now; pictures before it are not counted.
  void start_window();
  bool in_window() const { return window_start_us_ != 0 && window_end_us_ == 0; }
  bool window_started() const { return window_start_us_ != 0; }
  // A decoded picture: `luma(x, y)` reads it, `decode_ms` is what decoding
  // it took. Returns the counter read from it, if any.
  std::optional<uint32_t> on_picture(const std::function<int(int, int)>& luma, double decode_ms);
  // Bytes received (payload as it came off the wire).
  void on_bytes(uint64_t n) {
    if (in_window()) bytes_ += n;
  }

  // Ends the measured window now; later pictures are not counted.
  void stop_window();
  // The results as JSON, for the window started and stopped.
  nlohmann::json finish(const DrawLog& log) const;

 private:
  struct Seen {
    uint32_t counter;
    int64_t decoded_us;
  };
  int cell_;
  int64_t window_start_us_ = 0;
  int64_t window_end_us_ = 0;
  uint64_t pictures_ = 0;
  uint64_t unreadable_ = 0;
  uint64_t bytes_ = 0;
  std::optional<uint32_t> last_counter_;
  std::vector<Seen> seen_;  // first decode of each new counter, in order
  std::vector<double> decode_ms_;
};

double percentile(std::vector<double> values, double p);

// A gap longer than this without a new frame is a freeze.
inline constexpr int64_t kFreezeUs = 250'000;
// The latency timeline's step.
inline constexpr int64_t kTimelineStepUs = 100'000;

}  // namespace voxl::bench
