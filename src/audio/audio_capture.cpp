#include "audio/audio_capture.h"

#include <algorithm>
#include <array>
#include <exception>
#include <stdexcept>

#include "audio/opus_codec.h"
#include "base/clock.h"
#include "base/reconnector.h"

namespace voxl::audio {

AudioCapture::AudioCapture(SourceOpener open, AudioCaptureSettings settings, Logger log,
                           PacketCallback on_packet)
    : open_(std::move(open)), settings_(std::move(settings)), log_(std::move(log)),
      on_packet_(std::move(on_packet)) {
  // Checks the settings now, while an exception still means "cannot start".
  OpusPacketEncoder probe(kSampleRate, kDesktopChannels, settings_.bitrate);
  thread_ = std::thread([this] { run(); });
}

AudioCapture::~AudioCapture() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    active_ = false;  // ends stream() after the frame being read
  }
  cv_.notify_all();
  thread_.join();
}

void AudioCapture::set_active(bool active) {
  {
    std::lock_guard lock(mu_);
    active_ = active;
  }
  cv_.notify_all();
}

bool AudioCapture::wait_until_active() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return stop_ || active_; });
  return !stop_;
}

bool AudioCapture::wait_for_retry(std::chrono::steady_clock::duration d) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, d, [this] { return stop_ || !active_; });
  return !stop_;
}

void AudioCapture::run() {
  // Tries again while someone listens, through one back-off; a reason is
  // said once while it repeats.
  Reconnector reopen(kFirstRetry, kLongestRetry);
  try {
    while (wait_until_active()) {
      auto source = reopen.try_once(
          [this] {
            std::string error;
            auto opened = open_(error);
            if (!opened) throw std::runtime_error(error.empty() ? "it did not open" : error);
            return opened;
          },
          [this](const std::string& why) {
            log_->warn("no audio from {} ({}): streaming video alone; trying again while someone watches",
                       settings_.device_label, why);
          });
      if (!source) {
        if (!wait_for_retry(reopen.next_wait())) break;
        continue;
      }
      if (reopen.failing()) log_->info("audio from {} is back", settings_.device_label);
      else log_->info("capturing audio from {}", settings_.device_label);
      reopen.restart();
      if (auto lost = stream(*source)) {
        // Lost mid-stream: wait before reopening, so a server that accepts
        // and then fails every stream costs no busy loop.
        source.reset();
        reopen.failed(*lost, [this](const std::string& why) {
          log_->warn("lost audio from {} ({}): streaming video alone; trying again", settings_.device_label, why);
        });
        if (!wait_for_retry(reopen.next_wait())) break;
        continue;
      }
      log_->debug("audio capture stopped: nobody listens");
    }
  } catch (const std::exception& e) {
    // Nothing may escape a thread; the video goes on without sound.
    log_->error("audio stopped: {}", e.what());
  } catch (...) {
    log_->error("audio stopped: an unknown exception");
  }
}

std::optional<std::string> AudioCapture::stream(AudioSource& source) {
  OpusPacketEncoder encoder(kSampleRate, kDesktopChannels, settings_.bitrate);
  std::array<int16_t, kFrameSamples * kDesktopChannels> pcm{};
  constexpr auto kFrameUs = uint64_t(std::chrono::microseconds(kFrameDuration).count());
  while (active_) {
    std::string error;
    if (source.read(pcm, error) != SourceStatus::kOk) return error.empty() ? "the read failed" : error;
    // The frame's first sample was recorded one frame, plus whatever the
    // server still buffers, before the read returned.
    auto packet = std::make_shared<AudioPacket>();
    packet->capture_wall_us = wall_clock_us() - kFrameUs - source.latency_us();
    if (!encoder.encode(pcm, packet->data)) {
      log_->warn("Opus refused an audio frame");
      continue;
    }
    packet->sequence = ++sequence_;
    on_packet_(std::move(packet));
  }
  return std::nullopt;
}

}  // namespace voxl::audio
