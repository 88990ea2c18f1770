// Fan-out of the desktop's encoded sound to every listener. It switches
// audio capture on when the first listener arrives and off when the last
// one leaves: no viewer, no capture. Separate from the video Hub because the
// two streams have nothing in common but their consumers: no key frames, no
// pausing, packets small and periodic.
//
// Threads: the loop thread only. Sinks are registered by raw pointer and
// must remove themselves before they are destroyed.
#pragma once

#include <functional>
#include <vector>

#include "audio/audio_format.h"

namespace voxl::stream {

class AudioSink {
 public:
  virtual ~AudioSink() = default;
  // Called on the loop thread for every packet; must not block. A sink
  // that throws is removed (it hears nothing more).
  virtual void on_audio(const audio::AudioPacketPtr& packet) = 0;
};

class AudioHub {
 public:
  explicit AudioHub(std::function<void(bool)> set_active) : set_active_(std::move(set_active)) {}

  void add(AudioSink* sink);
  void remove(AudioSink* sink);
  size_t sinks() const { return sinks_.size(); }

  void publish(const audio::AudioPacketPtr& packet);

 private:
  std::function<void(bool)> set_active_;
  std::vector<AudioSink*> sinks_;
};

}  // namespace voxl::stream
