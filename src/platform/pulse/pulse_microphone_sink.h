// The microphone on PulseAudio: PCM written into the FIFO that
// module-pipe-source reads, so the desktop's applications record from a
// "voxl_microphone" source. Loads the module at start (PipeSourceModule),
// retries later when the server was not there, and reopens the FIFO when
// the module replaced it.
//
// Threads: the loop thread only (see MicrophoneSink). Construction blocks on
// pactl (bounded by its timeout) and throws std::runtime_error when the FIFO
// cannot be made or is unsafe (start-up only).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "audio/microphone_sink.h"
#include "base/logging.h"
#include "platform/pulse/microphone_fifo.h"
#include "platform/pulse/pipe_source_module.h"

namespace voxl::platform::pulse {

class PulseMicrophoneSink final : public audio::MicrophoneSink {
 public:
  // `fifo` empty: default_microphone_fifo().
  PulseMicrophoneSink(const std::string& fifo, Logger log);

  void write(std::span<const int16_t> pcm) override;
  std::string describe() const override;

 private:
  Logger log_;
  PipeSourceModule module_;  // before the FIFO: the module makes its own
  std::optional<MicrophoneFifo> fifo_;  // made after the module has had its chance
  uint32_t fifo_generation_ = 0;
};

}  // namespace voxl::platform::pulse
