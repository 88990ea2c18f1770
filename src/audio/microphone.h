// The viewer's microphone on the desktop: Opus packets from the browser are
// decoded (48 kHz mono) and written to the platform's microphone sink
// (PulseAudio's pipe source on Linux, a virtual cable on Windows).
//
// One speaker at a time: packets from a second viewer are dropped while the
// current one sent something in the last kHandOver; after that the next
// viewer to speak takes over (with a fresh decoder).
//
// Threads: the loop thread only. Never blocks (the FIFO drops old audio
// when full).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "audio/microphone_sink.h"
#include "audio/opus_codec.h"
#include "base/logging.h"

namespace voxl::audio {

class Microphone {
 public:
  Microphone(std::unique_ptr<MicrophoneSink> sink, Logger log);

  // One packet from `speaker` (any stable pointer identifying the viewer).
  void on_packet(const void* speaker, uint32_t sequence, std::span<const uint8_t> opus);
  // The viewer left: someone else may speak at once.
  void forget(const void* speaker);

  uint64_t packets() const { return packets_; }
  uint64_t bad_packets() const { return bad_packets_; }

  static constexpr std::chrono::milliseconds kHandOver{500};
  // Losses up to this many packets are concealed; longer gaps are silence.
  static constexpr uint32_t kMaxConcealed = 5;

 private:
  Logger log_;
  std::unique_ptr<MicrophoneSink> sink_;
  std::unique_ptr<OpusPacketDecoder> decoder_;
  const void* speaker_ = nullptr;
  std::chrono::steady_clock::time_point last_heard_;
  uint32_t last_sequence_ = 0;
  std::vector<int16_t> pcm_;
  uint64_t packets_ = 0;
  uint64_t bad_packets_ = 0;
};

}  // namespace voxl::audio
