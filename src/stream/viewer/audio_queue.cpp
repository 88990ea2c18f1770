#include "stream/viewer/audio_queue.h"

namespace voxl::stream {

void AudioQueue::push(audio::AudioPacketPtr packet) {
  if (max_packets_ == 0) {
    ++dropped_;
    return;
  }
  while (packets_.size() >= max_packets_) {
    packets_.pop_front();
    ++dropped_;
  }
  packets_.push_back(std::move(packet));
}

audio::AudioPacketPtr AudioQueue::pop() {
  if (packets_.empty()) return nullptr;
  auto p = std::move(packets_.front());
  packets_.pop_front();
  return p;
}

}  // namespace voxl::stream
