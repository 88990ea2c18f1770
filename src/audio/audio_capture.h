// The audio thread: reads desktop sound one 10 ms frame at a time, encodes
// it with Opus and hands each packet to `on_packet`. It runs only while
// someone listens (set_active): no viewer, no capture, no connection to the
// sound server.
//
// When the server is not there, it says so once per reason (warning), keeps
// the video going alone and tries again with a growing back-off (1 s
// doubling to 10 s, base/reconnector.h) while someone listens: there is no
// event for "a sound server appeared". A server that goes away mid-stream
// is handled the same way.
//
// Threads: constructed, controlled and destroyed on the loop thread;
// set_active is thread-safe. `on_packet` runs on the audio thread: post to
// your own loop. The destructor joins the thread (at most one frame's wait).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "audio/audio_format.h"
#include "audio/audio_source.h"
#include "base/logging.h"

namespace voxl::audio {

struct AudioCaptureSettings {
  std::string device_label;  // for the logs
  int bitrate = 128000;
};

class AudioCapture {
 public:
  using PacketCallback = std::function<void(AudioPacketPtr)>;

  AudioCapture(SourceOpener open, AudioCaptureSettings settings, Logger log, PacketCallback on_packet);
  ~AudioCapture();
  AudioCapture(const AudioCapture&) = delete;
  AudioCapture& operator=(const AudioCapture&) = delete;

  void set_active(bool active);

  static constexpr std::chrono::seconds kFirstRetry{1};
  static constexpr std::chrono::seconds kLongestRetry{10};

 private:
  void run();
  // Reads and encodes until inactive (nullopt) or the source is lost (why).
  std::optional<std::string> stream(AudioSource& source);
  // Waits until active (true) or stopped (false).
  bool wait_until_active();
  // Waits `d` unless stopped or deactivated first; false when stopped.
  bool wait_for_retry(std::chrono::steady_clock::duration d);

  SourceOpener open_;
  AudioCaptureSettings settings_;
  Logger log_;
  PacketCallback on_packet_;
  uint32_t sequence_ = 0;

  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> active_{false};
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace voxl::audio
