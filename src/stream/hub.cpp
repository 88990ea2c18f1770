#include "stream/hub.h"

#include <algorithm>

namespace voxl::stream {

void Hub::add(VideoSink* sink) {
  sinks_.push_back(sink);
  if (sinks_.size() == 1 && controls_.set_active) controls_.set_active(true);
  request_keyframe();
  refresh_pause();
  refresh_rate();
}

void Hub::remove(VideoSink* sink) {
  const auto it = std::find(sinks_.begin(), sinks_.end(), sink);
  if (it == sinks_.end()) return;
  sinks_.erase(it);
  if (sinks_.empty() && controls_.set_active) controls_.set_active(false);
  refresh_pause();
  refresh_rate();
}

void Hub::publish(const encode::EncodedFramePtr& frame) {
  if (frame->key) key_pending_ = false;
  // A sink may leave while being fed (its socket failed): iterate a copy.
  const auto sinks = sinks_;
  for (VideoSink* s : sinks)
    if (std::find(sinks_.begin(), sinks_.end(), s) != sinks_.end()) s->on_video(frame);
  refresh_pause();
}

void Hub::refresh_pause() {
  const bool paused =
      !sinks_.empty() && std::none_of(sinks_.begin(), sinks_.end(), [](const VideoSink* s) { return s->ready(); });
  if (paused == paused_) return;
  paused_ = paused;
  if (controls_.set_paused) controls_.set_paused(paused);
}

void Hub::set_bitrate_limits(BitrateLimits limits) {
  limits_ = limits;
  refresh_rate();
}

void Hub::refresh_rate() {
  targets_.clear();
  for (const VideoSink* s : sinks_)
    if (const int t = s->target_kbps(); t > 0) targets_.push_back(t);
  const int kbps = combined_target_kbps(targets_, limits_);
  if (kbps == target_kbps_) return;
  target_kbps_ = kbps;
  if (controls_.set_target_kbps) controls_.set_target_kbps(kbps);
}

void Hub::request_keyframe() {
  const auto now = std::chrono::steady_clock::now();
  if (key_pending_ && now - key_asked_at_ < kRetry) return;
  key_pending_ = true;
  key_asked_at_ = now;
  if (controls_.request_keyframe) controls_.request_keyframe();
}

}  // namespace voxl::stream
