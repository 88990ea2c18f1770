#include "stream/video/video_controls.h"

namespace voxl::stream {

VideoControls::VideoControls(int max_fps, int max_kbps) : max_fps_(max_fps) {
  for (auto& k : max_kbps_) k = max_kbps;
}

void VideoControls::set_active(bool active) {
  {
    std::lock_guard lock(mu_);
    active_ = active;
  }
  cv_.notify_all();
}

void VideoControls::set_paused(bool paused) {
  {
    std::lock_guard lock(mu_);
    paused_ = paused;
  }
  cv_.notify_all();
}

bool VideoControls::set_rung(int rung, bool coded, bool ready) {
  if (rung < 0 || rung >= kMaxRungs) return false;
  bool woke = false;
  {
    std::lock_guard lock(mu_);
    woke = ready && !ready_[size_t(rung)];
    coded_[size_t(rung)] = coded;
    ready_[size_t(rung)] = ready;
  }
  cv_.notify_all();
  // A rung that skipped damage while congested codes it now, still screen or not.
  return woke && owes_[size_t(rung)];
}

void VideoControls::ask_key(int rung) {
  if (rung >= 0 && rung < kMaxRungs) keyframe_[size_t(rung)] = true;
}

void VideoControls::ask_all_keys() {
  for (auto& k : keyframe_) k = true;
}

void VideoControls::set_max_kbps(int rung, int kbps) {
  if (rung >= 0 && rung < kMaxRungs) max_kbps_[size_t(rung)] = kbps;
}

void VideoControls::stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
}

bool VideoControls::wait_active() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return active_ || stop_; });
  return !stop_;
}

std::optional<bool> VideoControls::pace(Clock::time_point earliest, Clock::duration max_pause) {
  std::unique_lock lock(mu_);
  // Never faster than the frame rate: damage keeps accumulating in the
  // capturer meanwhile, so nothing is lost by waiting.
  if (cv_.wait_until(lock, earliest, [this] { return stop_ || !active_; })) return std::nullopt;
  // Don't produce while every viewer is congested.
  cv_.wait_for(lock, max_pause, [this] { return stop_ || !active_ || !paused_; });
  if (stop_ || !active_) return std::nullopt;
  return paused_;
}

bool VideoControls::wait_rebuild(Clock::duration delay) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, delay, [this] { return stop_; });
  cv_.wait(lock, [this] { return stop_ || active_; });
  return !stop_;
}

VideoControls::Rungs VideoControls::rungs() const {
  std::lock_guard lock(mu_);
  return {coded_, ready_};
}

}  // namespace voxl::stream
