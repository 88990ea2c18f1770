#include "stream/video/encoder_thread_rule.h"

#include <algorithm>

namespace voxl::stream {

EncoderThreadRule::EncoderThreadRule(int max_threads) : max_threads_(std::max(1, max_threads)) {}

void EncoderThreadRule::set(int threads) {
  if (threads == threads_) return;
  threads_ = threads;
  ++switches_;
  settle_ = kSettleFrames;
  heavy_.clear();
  light_run_ = 0;
}

void EncoderThreadRule::on_frame() {
  if (settle_ > 0) --settle_;
}

void EncoderThreadRule::on_motion_frame(double encode_us, double interval_us, Clock::time_point now) {
  last_motion_ = now;
  if (settle_ > 0) {
    --settle_;
    return;
  }
  if (max_threads_ == 1 || interval_us <= 0) return;
  // What this frame would have taken on one thread.
  const double one_thread_us = encode_us * threads_;
  heavy_.push_back(one_thread_us > kUpShare * interval_us);
  if (heavy_.size() > kWindow) heavy_.pop_front();
  light_run_ = one_thread_us < kDownShare * interval_us ? light_run_ + 1 : 0;
  if (threads_ == 1) {
    if (size_t(std::count(heavy_.begin(), heavy_.end(), true)) >= kUpFrames) set(max_threads_);
  } else if (light_run_ >= kDownFrames) {
    set(1);
  }
}

void EncoderThreadRule::on_tick(Clock::time_point now) {
  if (threads_ > 1 && last_motion_ != Clock::time_point{} && now - last_motion_ >= kQuiet) set(1);
}

}  // namespace voxl::stream
