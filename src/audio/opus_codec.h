// libopus, wrapped: an encoder tuned for low delay (the restricted-low-delay
// application drops the speech path's extra look-ahead) and a decoder with
// packet-loss concealment.
//
// Threads: each object is used by one thread at a time. Construction throws
// std::runtime_error on invalid settings (start-up only); encode and decode
// report failures by return value.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

struct OpusEncoder;
struct OpusDecoder;

namespace voxl::audio {

class OpusPacketEncoder {
 public:
  OpusPacketEncoder(int sample_rate, int channels, int bitrate);
  ~OpusPacketEncoder();
  OpusPacketEncoder(const OpusPacketEncoder&) = delete;
  OpusPacketEncoder& operator=(const OpusPacketEncoder&) = delete;

  // Encodes one frame (2.5-60 ms of interleaved samples) into `out`; false
  // when libopus refuses it.
  bool encode(std::span<const int16_t> pcm, std::vector<uint8_t>& out);

 private:
  OpusEncoder* enc_ = nullptr;
  int channels_;
};

class OpusPacketDecoder {
 public:
  OpusPacketDecoder(int sample_rate, int channels);
  ~OpusPacketDecoder();
  OpusPacketDecoder(const OpusPacketDecoder&) = delete;
  OpusPacketDecoder& operator=(const OpusPacketDecoder&) = delete;

  // Decodes one packet into interleaved samples (replacing `pcm`); an empty
  // packet conceals one lost 10 ms frame. False on a corrupt packet.
  bool decode(std::span<const uint8_t> packet, std::vector<int16_t>& pcm);

 private:
  OpusDecoder* dec_ = nullptr;
  int channels_;
  int sample_rate_;
};

}  // namespace voxl::audio
