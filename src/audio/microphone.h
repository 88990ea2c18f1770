// The viewer's microphone on the desktop: Opus packets from the browser are
// decoded (48 kHz mono) and written into the microphone FIFO, which
// PulseAudio's module-pipe-source reads (loaded by PipeSourceModule).
//
// One speaker at a time: packets from a second viewer are dropped while the
// current one sent something in the last kHandOver; after that the next
// viewer to speak takes over (with a fresh decoder).
//
// Threads: the loop thread only. Never blocks (the FIFO drops old audio
// when full). Construction throws std::runtime_error when the FIFO cannot be
// made (start-up only).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "platform/pulse/microphone_fifo.h"
#include "audio/opus_codec.h"
#include "platform/pulse/pipe_source_module.h"
#include "base/logging.h"

namespace voxl::audio {

class Microphone {
 public:
  Microphone(const std::string& fifo, Logger log);

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
  PipeSourceModule module_;  // before the FIFO: the module makes its own
  std::optional<MicrophoneFifo> fifo_;  // made after the module has had its chance
  uint32_t fifo_generation_ = 0;
  std::unique_ptr<OpusPacketDecoder> decoder_;
  const void* speaker_ = nullptr;
  std::chrono::steady_clock::time_point last_heard_;
  uint32_t last_sequence_ = 0;
  std::vector<int16_t> pcm_;
  uint64_t packets_ = 0;
  uint64_t bad_packets_ = 0;
};

}  // namespace voxl::audio
