#include "audio/audio_capture.h"

#include <algorithm>
#include <array>
#include <exception>

#include "audio/opus_codec.h"
#include "base/backoff.h"
#include "base/clock.h"

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
  bool missing = false;  // said once that the server is not there
  Backoff backoff(kFirstRetry, kLongestRetry);
  try {
    while (wait_until_active()) {
      std::string error;
      auto source = open_(error);
      if (!source) {
        if (!missing)
          log_->warn("no audio from {} ({}): streaming video alone; trying again while someone watches",
                     settings_.device_label, error);
        missing = true;
        if (!wait_for_retry(backoff.next())) break;
        continue;
      }
      if (missing) log_->info("audio from {} is back", settings_.device_label);
      else log_->info("capturing audio from {}", settings_.device_label);
      missing = false;
      backoff.reset();
      if (stream(*source)) {
        // Lost mid-stream: said already; wait before reopening so a server
        // that accepts and then fails every stream costs no busy loop.
        missing = true;
        source.reset();
        if (!wait_for_retry(backoff.next())) break;
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

bool AudioCapture::stream(AudioSource& source) {
  OpusPacketEncoder encoder(kSampleRate, kDesktopChannels, settings_.bitrate);
  std::array<int16_t, kFrameSamples * kDesktopChannels> pcm{};
  constexpr auto kFrameUs = uint64_t(std::chrono::microseconds(kFrameDuration).count());
  while (active_) {
    std::string error;
    if (source.read(pcm, error) != SourceStatus::kOk) {
      log_->warn("lost audio from {} ({}): streaming video alone; trying again", settings_.device_label, error);
      return true;
    }
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
  return false;
}

}  // namespace voxl::audio
