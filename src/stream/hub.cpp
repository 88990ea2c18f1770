#include "stream/hub.h"

#include <algorithm>

#include "stream/viewer_settings.h"

namespace voxl::stream {

void Hub::add(VideoSink* sink) {
  sinks_.push_back(sink);
  if (sinks_.size() == 1 && controls_.set_active) controls_.set_active(true);
  refresh_chroma();
  request_keyframe();
  refresh_pause();
  refresh_rate();
  refresh_fps();
}

void Hub::remove(VideoSink* sink) {
  const auto it = std::find(sinks_.begin(), sinks_.end(), sink);
  if (it == sinks_.end()) return;
  sinks_.erase(it);
  if (sinks_.empty() && controls_.set_active) controls_.set_active(false);
  refresh_chroma();
  refresh_pause();
  refresh_rate();
  refresh_fps();
}

void Hub::publish(const encode::EncodedFramePtr& frame) {
  if (frame->key) {
    key_pending_ = false;
    key_deferred_ = false;  // a request put off is served by this one
    last_key_at_ = now();
    any_key_ = true;
  }
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

void Hub::set_server_max_fps(int fps) {
  server_max_fps_ = std::max(1, fps);
  refresh_fps();
}

void Hub::refresh_fps() {
  caps_.clear();
  for (const VideoSink* s : sinks_) caps_.push_back(s->max_fps());
  const int fps = combined_max_fps(caps_, server_max_fps_);
  if (fps == max_fps_) return;
  max_fps_ = fps;
  if (controls_.set_max_fps) controls_.set_max_fps(fps);
}

void Hub::refresh_chroma() {
  const bool full = !sinks_.empty() &&
                    std::all_of(sinks_.begin(), sinks_.end(), [](const VideoSink* s) { return s->takes_full_chroma(); });
  if (full == full_chroma_) return;
  full_chroma_ = full;
  if (controls_.set_full_chroma) controls_.set_full_chroma(full);
}

std::chrono::steady_clock::time_point Hub::now() const {
  return controls_.now ? controls_.now() : std::chrono::steady_clock::now();
}

void Hub::request_keyframe() {
  if (key_deferred_) return;  // the timer's IDR serves this one too
  const auto t = now();
  if (key_pending_ && t - key_asked_at_ < kRetry) return;
  if (any_key_ && t - last_key_at_ < kMinKeyInterval && controls_.arm_key_timer) {
    key_deferred_ = true;
    controls_.arm_key_timer(last_key_at_ + kMinKeyInterval - t);
    return;
  }
  ask_encoder(t);
}

void Hub::on_key_timer() {
  if (!key_deferred_) return;
  key_deferred_ = false;
  if (sinks_.empty()) return;  // nobody left to want it
  ask_encoder(now());
}

void Hub::ask_encoder(std::chrono::steady_clock::time_point t) {
  key_pending_ = true;
  key_asked_at_ = t;
  last_key_at_ = t;
  any_key_ = true;
  if (controls_.request_keyframe) controls_.request_keyframe();
}

}  // namespace voxl::stream
