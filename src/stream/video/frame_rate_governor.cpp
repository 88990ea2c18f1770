#include "stream/video/frame_rate_governor.h"

#include <algorithm>
#include <cmath>

namespace voxl::stream {

FrameRateGovernor::FrameRateGovernor(int min_fps, int max_fps)
    : min_fps_(std::max(1, std::min(min_fps, max_fps))),
      max_fps_(std::max(1, max_fps)),
      fps_(max_fps_),
      ceiling_(max_fps_) {}

void FrameRateGovernor::set_ceiling(int fps) {
  const int c = std::clamp(fps, 1, max_fps_);
  if (c == ceiling_) return;
  const int before = this->fps();
  ceiling_ = c;
  if (this->fps() != before) frames_at_rate_ = 0;  // judge the new rate by its own frames
}

void FrameRateGovernor::set_smooth(bool smooth) {
  if (smooth == smooth_) return;
  smooth_ = smooth;
  const int before = fps();
  fps_ = max_fps_;
  if (fps() != before) frames_at_rate_ = 0;
}

void FrameRateGovernor::on_motion_frame(double rate_factor, double crf, Clock::time_point now) {
  const double excess = std::max(0.0, rate_factor - crf);
  excess_ = frames_at_rate_ == 0 && changed_at_ == Clock::time_point{} ? excess
                                                                        : excess_ * (1 - kWeight) + excess * kWeight;
  ++frames_at_rate_;
  if (smooth_ || frames_at_rate_ < kSettleFrames) return;
  const auto since = now - changed_at_;
  const int current = fps();
  int next = current;
  if (excess_ > kCeiling && current > min_fps_ && since >= kDownEvery) {
    next = std::max(min_fps_, int(std::lround(current * kDown)));
    if (next == current) next = current - 1;
  } else if (current < ceiling_ && since >= kUpEvery &&
             excess_ < kCeiling - kHysteresis - 6 * std::log2(kUp)) {
    next = std::min(max_fps_, int(std::lround(current * kUp)));
    if (next == current) next = current + 1;
  }
  if (next == current) return;
  fps_ = next;
  frames_at_rate_ = 0;
  changed_at_ = now;
}

}  // namespace voxl::stream
