#include "app/audio_wiring.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <string>

#include "audio/audio_capture.h"
#include "audio/microphone.h"
#include "platform/pulse/microphone_fifo.h"
#include "platform/pulse/pulse_source.h"

namespace voxl::app {

namespace asio = boost::asio;

AudioWiring::AudioWiring(const Config& config, asio::io_context& io, const Logger& log)
    : sound_(config.audio), hub_([this](bool on) { if (capture_) capture_->set_active(on); }) {
  if (sound_) {
    capture_ = std::make_unique<audio::AudioCapture>(
        [device = config.audio_device](std::string& error) { return audio::open_pulse_source(device, error); },
        audio::AudioCaptureSettings{"PulseAudio source " + audio::pulse_device_name(config.audio_device),
                                    config.audio_bitrate},
        log, [&io, this](audio::AudioPacketPtr p) {
          asio::post(io, [this, p = std::move(p)] { hub_.publish(p); });
        });
  }
  if (config.microphone)
    microphone_ = std::make_unique<audio::Microphone>(
        config.microphone_fifo.empty() ? audio::default_microphone_fifo() : config.microphone_fifo, log);
}

AudioWiring::~AudioWiring() = default;

void AudioWiring::stop_capture() { capture_.reset(); }

}  // namespace voxl::app
