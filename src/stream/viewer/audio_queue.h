// Desktop-audio packets waiting for one viewer's socket, bounded in count.
// Sound that arrives too late is worse than a gap, so when the viewer
// falls behind the oldest packets go first; the client's jitter buffer
// conceals the hole. Pure logic; one thread (the viewer's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

#include "audio/audio_format.h"

namespace voxl::stream {

class AudioQueue {
 public:
  explicit AudioQueue(size_t max_packets) : max_packets_(max_packets) {}

  void push(audio::AudioPacketPtr packet);
  audio::AudioPacketPtr pop();  // nullptr when empty
  bool empty() const { return packets_.empty(); }
  size_t size() const { return packets_.size(); }
  uint64_t dropped() const { return dropped_; }

 private:
  size_t max_packets_;
  std::deque<audio::AudioPacketPtr> packets_;
  uint64_t dropped_ = 0;
};

}  // namespace voxl::stream
