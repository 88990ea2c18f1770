#include "stream/fanout/audio_hub.h"

#include <algorithm>

namespace voxl::stream {

void AudioHub::add(AudioSink* sink) {
  if (std::find(sinks_.begin(), sinks_.end(), sink) != sinks_.end()) return;
  sinks_.push_back(sink);
  if (sinks_.size() == 1 && set_active_) set_active_(true);
}

void AudioHub::remove(AudioSink* sink) {
  const auto it = std::find(sinks_.begin(), sinks_.end(), sink);
  if (it == sinks_.end()) return;
  sinks_.erase(it);
  if (sinks_.empty() && set_active_) set_active_(false);
}

void AudioHub::publish(const audio::AudioPacketPtr& packet) {
  // A sink may leave while being fed (its socket failed): iterate a copy.
  // One that throws is dropped; the others still get the packet.
  const auto sinks = sinks_;
  for (AudioSink* s : sinks) {
    if (std::find(sinks_.begin(), sinks_.end(), s) == sinks_.end()) continue;
    try {
      s->on_audio(packet);
    } catch (...) {
      remove(s);
    }
  }
}

}  // namespace voxl::stream
