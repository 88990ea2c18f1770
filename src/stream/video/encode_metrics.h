// Counters and stage time histograms of the encoded streams since start,
// for /metrics: pictures, bytes and key frames per rung, and how long each
// capture took to grab, convert and publish on the loop (once per capture)
// and each rung's picture to encode. A striped picture counts once, with its bands'
// bytes summed. Fed with every published frame; loop thread only.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>

#include "base/metrics_text.h"
#include "encode/encoded_frame.h"
#include "stream/video/rung_planner.h"

namespace voxl::stream {

class EncodeMetrics {
 public:
  EncodeMetrics();
  void add(const encode::EncodedFrame& f, std::chrono::steady_clock::time_point published);
  void write(MetricsText& out) const;

 private:
  struct Rung {
    uint64_t pictures = 0;
    uint64_t bytes = 0;
    uint64_t key_pictures = 0;
    bool part_key = false;  // a key band so far in the picture being summed
  };
  std::array<Rung, kMaxRungs> rungs_{};
  Histogram capture_;
  Histogram convert_;
  Histogram encode_;
  Histogram pipeline_;  // capture -> published
};

}  // namespace voxl::stream
