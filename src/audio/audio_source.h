// A source of desktop sound: interleaved 16-bit PCM at kSampleRate with
// kDesktopChannels. Platform-neutral; PulseAudio implements it on Linux
// (pulse_source.h), and WASAPI or ScreenCaptureKit would on other systems.
//
// Threads: one thread at a time (the audio thread); read() blocks until the
// buffer is full or the source fails.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

namespace voxl::audio {

enum class SourceStatus {
  kOk,
  kLost,  // the sound server went away or the device vanished: reopen later
};

class AudioSource {
 public:
  virtual ~AudioSource() = default;
  // Fills `pcm` entirely (frames * channels samples). On kLost, `error` says why.
  virtual SourceStatus read(std::span<int16_t> pcm, std::string& error) = 0;
  // How long ago, in µs, the first sample of the next read() was captured
  // beyond the read itself (the server's buffering); 0 when unknown.
  virtual uint64_t latency_us() { return 0; }
};

// Opens a source, or returns nullptr with `error` set when the sound server
// or the device is not there (yet): the caller retries later.
using SourceOpener = std::function<std::unique_ptr<AudioSource>(std::string& error)>;

}  // namespace voxl::audio
