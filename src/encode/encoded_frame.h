// One encoded picture, shared read-only by every viewer and recorder that
// sends or stores it. Immutable once published; any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/geometry.h"

namespace voxl::encode {

// Microseconds each stage of the pipeline took for this frame.
struct StageTimes {
  uint32_t capture_us = 0;
  uint32_t convert_us = 0;
  uint32_t encode_us = 0;
};

// When each stage ended for this frame (steady clock), for the per-frame
// trace viewers get in the video header. captured_at is the grab's end.
struct StageStamps {
  std::chrono::steady_clock::time_point ready;  // the video thread was free to capture
  std::chrono::steady_clock::time_point grab_start;
  std::chrono::steady_clock::time_point converted;
  std::chrono::steady_clock::time_point encoded;
  std::chrono::steady_clock::time_point published;  // on the loop thread, just before the hub
};

struct EncodedFrame {
  std::vector<uint8_t> data;  // one H.264 Annex B access unit
  bool key = false;           // IDR, with SPS and PPS in front
  uint32_t id = 0;            // counts encoded frames from 1
  Size size;                  // the coded picture: `captured` rounded down to even
  // The desktop area the picture shows: its pixel 0,0 lies at `origin` on
  // the desktop (capture::Frame::origin), and it was captured at `captured`
  // (one column or row more than `size` when odd). Input is mapped with it.
  Point origin;
  Size captured;
  std::string codec;          // "avc1.PPCCLL" from the stream's SPS
  uint64_t capture_wall_us = 0;  // CLOCK_REALTIME at capture
  std::chrono::steady_clock::time_point captured_at;
  StageTimes times;
  StageStamps stamps;
  double rate_factor = 0;  // x264's effective rate factor (the CRF unless the cap bound)
  int frame_rate = 0;      // the pacer's frame rate when it was coded
  bool smooth = false;     // the frame rate was held for smoothness (stream/video/motion_choice.h)
  int encoder_threads = 0;  // x264's slice threads (stripes: bands coding at once) when it was coded
  // --stripes: the picture is coded as `stripes` horizontal bands, each its
  // own H.264 stream; this frame is one access unit of stream `stripe`,
  // showing the rows `band` of the picture (x 0, the picture's width). One
  // stream: stripe 0 of 1, band the whole picture. A capture that changed
  // several bands makes one frame per band, `last_part` on the last.
  int stripe = 0;
  int stripes = 1;
  Rect band;
  bool last_part = true;
  // --max-encodes: which rung of the encoding ladder coded it (0: the best
  // picture, for the fastest links and recordings). How many rungs the
  // machine affords is not a frame's business: VideoPipeline reports it.
  int rung = 0;
  int rung_kbps = 0;  // the bitrate ceiling it was coded under
};

using EncodedFramePtr = std::shared_ptr<const EncodedFrame>;

}  // namespace voxl::encode
