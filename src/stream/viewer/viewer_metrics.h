// Counters and gauges of the viewers, for /metrics: video frames, bytes and
// key frames sent and frames dropped (a viewer that fell behind), in all
// since start, each live viewer's round trip, link and bitrate, and how
// many viewers each user has open. A
// viewer adds itself while connected and folds its counts into the totals
// when it leaves, so the totals never go down.
//
// Threads: loop thread only. The sources are called from write() and must
// stay valid until removed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "base/metrics_text.h"

namespace voxl::stream {

struct ViewerFigures {
  bool view_only = false;
  std::string user;  // who signed in ("" for the token or the built-in user)
  uint64_t frames_sent = 0;
  uint64_t bytes_sent = 0;  // video messages, headers included
  uint64_t key_frames_sent = 0;
  uint64_t frames_dropped = 0;  // thrown away unsent because the viewer fell behind
  double srtt_ms = 0;           // smoothed round trip (0: not measured yet)
  double min_rtt_ms = 0;
  double delivery_kbps = 0;  // what the link was seen to carry
  int target_kbps = 0;       // what this viewer asks the encoder for (0: no say)
};

class ViewerMetrics {
 public:
  ViewerMetrics();
  using Source = std::function<ViewerFigures()>;

  void add(uint64_t viewer, Source source);
  // Takes the viewer's last figures into the totals; an unknown id is ignored.
  void remove(uint64_t viewer);
  size_t viewers() const { return live_.size(); }
  // A video frame took `seconds` from being handed to the socket to its
  // write completing (the send stage, any viewer).
  void observe_send(double seconds) { send_.observe(seconds); }

  void write(MetricsText& out) const;

 private:
  std::map<uint64_t, Source> live_;  // bounded by the server's connection limit
  ViewerFigures gone_;               // the counters of viewers that left, summed
  uint64_t connected_ = 0;
  Histogram send_;
};

}  // namespace voxl::stream
