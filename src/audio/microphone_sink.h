// Where the viewers' microphone goes on the desktop: 48 kHz mono 16-bit
// PCM written as it arrives. Platform-neutral; PulseAudio's pipe source
// (a FIFO) implements it on Linux, a WASAPI render client on a virtual
// cable on Windows.
//
// Threads: the loop thread only. write() never blocks: when the desktop
// side does not keep up, old audio is dropped.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace voxl::audio {

class MicrophoneSink {
 public:
  virtual ~MicrophoneSink() = default;
  // Writes one decoded packet (kMicrophoneChannels interleaved samples).
  virtual void write(std::span<const int16_t> pcm) = 0;
  // Where the audio goes, for the log.
  virtual std::string describe() const = 0;
};

}  // namespace voxl::audio
