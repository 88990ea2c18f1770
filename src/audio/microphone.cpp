#include "audio/microphone.h"

#include "audio/audio_format.h"

namespace voxl::audio {

Microphone::Microphone(std::unique_ptr<MicrophoneSink> sink, Logger log) : log_(std::move(log)), sink_(std::move(sink)) {
  log_->info("microphone: viewers' audio goes to {}", sink_->describe());
}

void Microphone::forget(const void* speaker) {
  if (speaker == speaker_) speaker_ = nullptr;
}

void Microphone::on_packet(const void* speaker, uint32_t sequence, std::span<const uint8_t> opus) {
  const auto now = std::chrono::steady_clock::now();
  if (speaker != speaker_) {
    if (speaker_ && now - last_heard_ < kHandOver) return;  // someone else is speaking
    speaker_ = speaker;
    decoder_ = std::make_unique<OpusPacketDecoder>(kSampleRate, kMicrophoneChannels);
    last_sequence_ = sequence - 1;
  }
  last_heard_ = now;
  ++packets_;
  // A few lost packets are concealed so the voice does not click; a
  // reordered or repeated one is dropped.
  const int32_t gap = int32_t(sequence - last_sequence_);
  if (gap <= 0) return;
  if (gap > 1 && uint32_t(gap - 1) <= kMaxConcealed)
    for (int32_t i = 1; i < gap; ++i)
      if (decoder_->decode({}, pcm_)) sink_->write(pcm_);
  last_sequence_ = sequence;
  if (!decoder_->decode(opus, pcm_)) {
    if (bad_packets_++ == 0) log_->warn("microphone: a viewer sent a packet that is not Opus; dropped");
    return;
  }
  sink_->write(pcm_);
}

}  // namespace voxl::audio
