// An isolated PulseAudio for audio tests: its own HOME and XDG_RUNTIME_DIR
// in a temporary directory, a 48 kHz stereo null sink "vsink", anonymous
// access on its socket. Started as our child (it dies with the test) and
// killed, with its directory removed, on destruction. Works as root.
//
// Also a tone player and a recorder that talk to it through pa_simple.
//
// Threads: PulseServer on one thread; TonePlayer and Recorder run their own
// thread and their accessors may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "platform/child_process.h"

namespace voxl::testing {

class PulseServer {
 public:
  static constexpr const char* kSink = "vsink";

  // Starts the server in `dir` (created; a fresh temporary one when empty)
  // and waits until it answers. Throws std::runtime_error when it does not
  // within `limit`.
  explicit PulseServer(std::string dir = "", std::chrono::milliseconds limit = std::chrono::seconds(30));
  ~PulseServer();
  PulseServer(const PulseServer&) = delete;
  PulseServer& operator=(const PulseServer&) = delete;

  // The environment a client needs to find this server by default.
  std::vector<std::string> env() const { return env_for(dir_); }
  static std::vector<std::string> env_for(const std::string& dir);
  // A private directory with no server in it (for "no PulseAudio" tests);
  // removed by the caller.
  static std::string make_private_dir();
  std::string server() const;  // "unix:<socket>" for pa_simple and pactl

  // Runs `pactl --server=... <args>`; returns its exit status, `out` gets stdout.
  int pactl(const std::string& args, std::string* out = nullptr) const;

 private:
  std::string dir_;
  bool own_dir_ = false;
  std::unique_ptr<platform::ChildProcess> daemon_;
};

// Plays silence into a sink until tone_on(), then a sine of `hz`, in 10 ms
// writes of 48 kHz stereo s16le, keeping `buffer_frames` 10 ms frames in
// its playback stream (fewer: the tone enters the mix sooner, and the
// server hands the mix on in smaller pieces).
class TonePlayer {
 public:
  TonePlayer(const std::string& server, const std::string& sink, double hz, bool start_with_tone = true,
             int buffer_frames = 4);
  ~TonePlayer();
  TonePlayer(const TonePlayer&) = delete;
  TonePlayer& operator=(const TonePlayer&) = delete;

  // Switches to the tone; returns the wall clock (µs) just before its first
  // sample was written into the sink. `buffered_us` gets what the playback
  // stream held then (its reported latency).
  uint64_t tone_on(uint64_t* buffered_us = nullptr);
  void tone_off() { tone_ = false; }
  bool failed() const { return failed_; }

 private:
  void run(std::string server, std::string sink);

  double hz_;
  int buffer_frames_;
  std::atomic<bool> tone_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};
  std::mutex mu_;
  std::condition_variable written_;
  uint64_t tone_written_us_ = 0;
  uint64_t tone_buffered_us_ = 0;
  bool tone_pending_ = false;
  bool done_ = false;  // the player thread has ended
  std::thread thread_;
};

// Records mono 48 kHz s16le from a source into memory.
class Recorder {
 public:
  Recorder(const std::string& server, const std::string& source);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  std::vector<int16_t> samples() const;  // everything so far
  bool failed() const { return failed_; }

 private:
  void run(std::string server, std::string source);

  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};
  mutable std::mutex mu_;
  std::vector<int16_t> samples_;
  std::thread thread_;
};

}  // namespace voxl::testing
