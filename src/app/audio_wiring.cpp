#include "app/audio_wiring.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "audio/audio_capture.h"
#include "audio/microphone.h"
#include "platform/desktop_environment.h"

namespace voxl::app {

namespace asio = boost::asio;

AudioWiring::AudioWiring(const Config& config, asio::io_context& io, platform::DesktopEnvironment& desktop,
                         const Logger& log)
    : sound_(config.audio), hub_([this](bool on) { if (capture_) capture_->set_active(on); }) {
  if (sound_) {
    capture_ = std::make_unique<audio::AudioCapture>(
        desktop.audio_source_opener(), audio::AudioCaptureSettings{desktop.audio_source_label(), config.audio_bitrate},
        log, [&io, this](audio::AudioPacketPtr p) {
          asio::post(io, [this, p = std::move(p)] { hub_.publish(p); });
        });
  }
  if (config.microphone)
    microphone_ = std::make_unique<audio::Microphone>(desktop.make_microphone_sink(), log);
}

AudioWiring::~AudioWiring() = default;

void AudioWiring::stop_capture() { capture_.reset(); }

}  // namespace voxl::app
