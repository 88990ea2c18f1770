#include "stream/video/frame_pacer.h"

#include <algorithm>

namespace voxl::stream {

namespace {

FramePacer::Clock::duration per_second(int n) {
  return std::chrono::duration_cast<FramePacer::Clock::duration>(std::chrono::nanoseconds(1'000'000'000 / std::max(1, n)));
}

}  // namespace

FramePacer::FramePacer(int max_fps) { set_max_fps(max_fps); }

void FramePacer::set_max_fps(int max_fps) {
  interval_ = per_second(max_fps);
  step_ = per_second(std::max(1, max_fps) + 1);
}

void FramePacer::on_capture(Clock::time_point at) { due_ = std::max(due_, at) + step_; }

}  // namespace voxl::stream
