// The sound side: desktop sound (the platform's source and Opus on the audio
// thread, switched on by the audio hub while someone listens, packets
// posted to the loop and published there) and the viewers' microphone
// (--enable_microphone). Each is off unless its flag asks for it.
//
// Threads: the loop thread, except the capture's own thread (joined by
// stop_capture()). Lifetime: made after the loop and before the server; the
// capture stops right after the video pipeline; the audio hub and the
// microphone outlive the server's sessions, which leave the one and feed the
// other until they end, and go before the loop.
#pragma once

#include <memory>

#include "app/config.h"
#include "base/logging.h"
#include "stream/fanout/audio_hub.h"

namespace boost::asio {
class io_context;
}
namespace voxl::audio {
class AudioCapture;
class Microphone;
}  // namespace voxl::audio
namespace voxl::platform {
class DesktopEnvironment;
}

namespace voxl::app {

class AudioWiring {
 public:
  // Throws std::runtime_error when the microphone's sink cannot be made.
  AudioWiring(const Config& config, boost::asio::io_context& io, platform::DesktopEnvironment& desktop,
              const Logger& log);
  ~AudioWiring();
  AudioWiring(const AudioWiring&) = delete;
  AudioWiring& operator=(const AudioWiring&) = delete;

  // Null when that part is off.
  stream::AudioHub* hub() { return sound_ ? &hub_ : nullptr; }
  audio::Microphone* microphone() { return microphone_.get(); }

  // Stops and joins the audio thread; the hub's control then does nothing.
  void stop_capture();

 private:
  const bool sound_;
  stream::AudioHub hub_;
  std::unique_ptr<audio::Microphone> microphone_;
  std::unique_ptr<audio::AudioCapture> capture_;  // first to go: it posts to the hub
};

}  // namespace voxl::app
