// Where the time between "drawn" and "decoded" goes, frame by frame, for
// voxl's stream: the workload's draw time (its log), the server's stage
// stamps from the video header (ready to capture, grab start and end,
// converted, encoded, on the network thread, handed to the socket), and the
// viewer's own received and decoded times. Only the first picture showing a
// new marker counter is traced: that is the frame whose latency counts.
//
// Segments (medians and p90, ms), which add up to the latency:
//   draw_to_grab      drawn -> the grab started (damage delivery, a busy or
//                     held pipeline, a frame split across two captures)
//   grab              grab start -> captured
//   convert, encode   the pipeline's stages
//   to_loop           encoded -> on the network thread
//   queued            on the network thread -> handed to the socket (the
//                     viewer's queue and link window)
//   network           handed to the socket -> received by the viewer
//   decode            received -> decoded and read
// and ready_to_draw: drawn -> the pipeline was free to capture (negative when
// it was waiting before the draw, as it should).
//
// Clocks: the server's and the viewer's wall clocks are the same machine's
// in the benchmark. Threads: one thread at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "marker/marker.h"
#include "stream/viewer/wire_format.h"

namespace voxl::bench {

class FrameTrace {
 public:
  // One decoded video message whose picture showed `counter`.
  void on_frame(uint32_t counter, const stream::VideoHeader& header, const stream::VideoStamps& stamps,
                uint64_t received_wall_us, uint64_t decoded_wall_us);
  // The segments as JSON, joined with the draw log; empty when nothing was traced.
  nlohmann::json finish(const DrawLog& log) const;

 private:
  struct Entry {
    uint32_t counter;
    stream::VideoHeader header;
    stream::VideoStamps stamps;
    uint64_t received_us;
    uint64_t decoded_us;
  };
  std::optional<uint32_t> last_counter_;
  std::vector<Entry> entries_;  // one per distinct counter: bounded by the window's frames
};

}  // namespace voxl::bench
