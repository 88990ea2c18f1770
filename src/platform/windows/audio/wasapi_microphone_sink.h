// Where the viewers' microphone goes on Windows: a shared-mode WASAPI
// render stream of 48 kHz mono 16-bit PCM (the system converts it to the
// device's mix format, AUDCLNT_STREAMFLAGS_AUTOCONVERTPCM) into a virtual
// cable's input, whose other end applications record as a microphone.
// `device_name` picks the first output device whose friendly name contains
// it; empty picks the first containing "CABLE Input" (VB-Audio's cable),
// else "Virtual".
//
// write() never blocks: it copies what fits into the stream's 200 ms
// buffer and drops the rest. A device that goes away is said once in the
// log; writes are dropped from then on.
//
// Threads: construct, write and destroy on one thread (the loop thread),
// which the sink enters into COM's multithreaded apartment for its
// lifetime.
#pragma once

#include <memory>
#include <string>

#include "audio/microphone_sink.h"
#include "base/logging.h"

namespace voxl::platform::windows {

class WasapiMicrophoneSink final : public audio::MicrophoneSink {
 public:
  // Throws std::runtime_error when no output device matches or WASAPI
  // refuses the stream.
  WasapiMicrophoneSink(std::string device_name, Logger log);
  ~WasapiMicrophoneSink() override;
  WasapiMicrophoneSink(const WasapiMicrophoneSink&) = delete;
  WasapiMicrophoneSink& operator=(const WasapiMicrophoneSink&) = delete;

  void write(std::span<const int16_t> pcm) override;
  std::string describe() const override;

  uint64_t dropped_frames() const { return dropped_frames_; }

 private:
  struct Stream;

  Logger log_;
  std::unique_ptr<Stream> stream_;  // COM objects and the apartment they live in
  std::string endpoint_name_;
  bool failed_ = false;
  uint64_t dropped_frames_ = 0;
};

}  // namespace voxl::platform::windows
