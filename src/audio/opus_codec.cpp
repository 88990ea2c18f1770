#include "audio/opus_codec.h"

#include <opus/opus.h>

#include <stdexcept>
#include <string>

namespace voxl::audio {

namespace {
// The largest packet libopus can produce for one frame.
constexpr int kMaxPacket = 1500;
// 120 ms at 48 kHz: the longest frame a packet can hold.
constexpr int kMaxFrameSamples = 5760;
}  // namespace

OpusPacketEncoder::OpusPacketEncoder(int sample_rate, int channels, int bitrate) : channels_(channels) {
  int err = OPUS_OK;
  enc_ = opus_encoder_create(sample_rate, channels, OPUS_APPLICATION_RESTRICTED_LOWDELAY, &err);
  if (err != OPUS_OK || !enc_) throw std::runtime_error(std::string("Opus encoder: ") + opus_strerror(err));
  opus_encoder_ctl(enc_, OPUS_SET_BITRATE(bitrate));
  // Desktop sound is mostly music and effects; no discontinuous transmission:
  // the client's jitter buffer expects a packet every frame.
  opus_encoder_ctl(enc_, OPUS_SET_SIGNAL(OPUS_SIGNAL_MUSIC));
}

OpusPacketEncoder::~OpusPacketEncoder() { opus_encoder_destroy(enc_); }

bool OpusPacketEncoder::encode(std::span<const int16_t> pcm, std::vector<uint8_t>& out) {
  out.resize(kMaxPacket);
  const int n = opus_encode(enc_, pcm.data(), int(pcm.size()) / channels_, out.data(), kMaxPacket);
  if (n < 0) {
    out.clear();
    return false;
  }
  out.resize(size_t(n));
  return true;
}

OpusPacketDecoder::OpusPacketDecoder(int sample_rate, int channels)
    : channels_(channels), sample_rate_(sample_rate) {
  int err = OPUS_OK;
  dec_ = opus_decoder_create(sample_rate, channels, &err);
  if (err != OPUS_OK || !dec_) throw std::runtime_error(std::string("Opus decoder: ") + opus_strerror(err));
}

OpusPacketDecoder::~OpusPacketDecoder() { opus_decoder_destroy(dec_); }

bool OpusPacketDecoder::decode(std::span<const uint8_t> packet, std::vector<int16_t>& pcm) {
  const int max = packet.empty() ? sample_rate_ / 100 : kMaxFrameSamples;
  pcm.resize(size_t(max) * size_t(channels_));
  const int n = opus_decode(dec_, packet.empty() ? nullptr : packet.data(), int(packet.size()), pcm.data(), max, 0);
  if (n < 0) {
    pcm.clear();
    return false;
  }
  pcm.resize(size_t(n) * size_t(channels_));
  return true;
}

}  // namespace voxl::audio
