#include "stream/frame_pacer.h"

#include <algorithm>

namespace voxl::stream {

FramePacer::FramePacer(int max_fps)
    : interval_(std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(1'000'000'000 / std::max(1, max_fps)))) {}

void FramePacer::on_capture(Clock::time_point at) { due_ = std::max(due_, at) + interval_; }

}  // namespace voxl::stream
