#include "platform/pulse/pulse_microphone_sink.h"

namespace voxl::platform::pulse {

namespace {

std::string fifo_path(const std::string& configured) {
  return configured.empty() ? default_microphone_fifo() : configured;
}

}  // namespace

PulseMicrophoneSink::PulseMicrophoneSink(const std::string& fifo, Logger log)
    : log_(std::move(log)), module_(fifo_path(fifo), log_) {
  module_.load_now();
  fifo_.emplace(fifo_path(fifo));
  fifo_generation_ = module_.generation();
}

void PulseMicrophoneSink::write(std::span<const int16_t> pcm) {
  if (!module_.loaded()) module_.load(fifo_->created());  // the server may have appeared
  if (module_.generation() != fifo_generation_) {
    fifo_generation_ = module_.generation();
    if (!fifo_->reopen()) log_->warn("microphone: cannot reopen {}: {}", fifo_->path(), fifo_->last_error());
  }
  fifo_->write(pcm);
}

std::string PulseMicrophoneSink::describe() const { return "PulseAudio pipe source on " + fifo_->path(); }

}  // namespace voxl::platform::pulse
