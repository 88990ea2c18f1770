// Figures about the encoded stream over the last second: pictures (a
// striped picture's parts count once), key frames, bitrate, and the median time of each pipeline stage. Fed with
// every published frame; read as values (stream_figures.h) for /stats and
// the viewers' stats messages.
// Loop thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>

#include "encode/encoded_frame.h"
#include "stream/fanout/stream_figures.h"

namespace voxl::stream {

class StreamStats {
 public:
  void add(const encode::EncodedFrame& f, std::chrono::steady_clock::time_point published);

  // The figures of the second before `now`: pictures, kbit/s and key
  // frames in it, pictures in all, the last picture's size, codec, stripes,
  // frame rate (the pacer's) and encoder threads, and the medians of its
  // rate factor and stage times (milliseconds).
  RungFigures figures(std::chrono::steady_clock::time_point now) const;

 private:
  struct Sample {
    std::chrono::steady_clock::time_point at;
    encode::StageTimes times;
    uint32_t pipeline_us;  // capture -> published
    size_t bytes;
    bool key;
    uint32_t rate_factor_milli;  // x 1000, to share the medians' arithmetic
  };
  static constexpr auto kWindow = std::chrono::seconds(1);
  std::deque<Sample> window_;  // bounded by the frame rate times kWindow
  uint64_t total_ = 0;
  Size size_;
  int encoder_threads_ = 0;
  std::string codec_;
  int frame_rate_ = 0;
  bool smooth_ = false;
  int stripes_ = 1;
  size_t part_bytes_ = 0;  // the picture's parts so far
  bool part_key_ = false;
};

}  // namespace voxl::stream
