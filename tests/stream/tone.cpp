#include "tone.h"

#include <opus/opus.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace voxl::testing {

double tone_power(std::span<const float> x, double hz) {
  if (x.empty()) return 0;
  const double c = 2 * std::cos(2 * std::numbers::pi * hz / 48000);
  double s1 = 0, s2 = 0;
  for (float v : x) {
    const double s = v + c * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (s1 * s1 + s2 * s2 - c * s1 * s2) / (double(x.size()) * double(x.size()));
}

double rms(std::span<const float> x) {
  double sum = 0;
  for (float v : x) sum += double(v) * v;
  return x.empty() ? 0 : std::sqrt(sum / double(x.size()));
}

bool has_tone(std::span<const float> x, double hz) {
  if (rms(x) < 0.01) return false;
  const double p = tone_power(x, hz);
  for (double other : {hz * 0.7, hz * 1.5, hz * 2, hz * 3})
    if (p < 50 * tone_power(x, other)) return false;
  return true;
}

long onset(std::span<const float> x, float threshold) {
  const auto it = std::find_if(x.begin(), x.end(), [&](float v) { return std::fabs(v) > threshold; });
  return it == x.end() ? -1 : long(it - x.begin());
}

TestOpusDecoder::TestOpusDecoder(int channels) : channels_(channels) {
  int err = OPUS_OK;
  dec_ = opus_decoder_create(48000, channels, &err);
  if (err != OPUS_OK) throw std::runtime_error("opus_decoder_create failed");
}

TestOpusDecoder::~TestOpusDecoder() { opus_decoder_destroy(dec_); }

bool TestOpusDecoder::decode(std::span<const uint8_t> packet, std::vector<float>& out) {
  std::vector<float> pcm(size_t(5760 * channels_));
  const int n = opus_decode_float(dec_, packet.data(), int(packet.size()), pcm.data(), 5760, 0);
  if (n < 0) return false;
  for (int i = 0; i < n; ++i) out.push_back(pcm[size_t(i * channels_)]);
  return true;
}

TestOpusToneEncoder::TestOpusToneEncoder(double hz) : hz_(hz) {
  int err = OPUS_OK;
  enc_ = opus_encoder_create(48000, 1, OPUS_APPLICATION_VOIP, &err);
  if (err != OPUS_OK) throw std::runtime_error("opus_encoder_create failed");
}

TestOpusToneEncoder::~TestOpusToneEncoder() { opus_encoder_destroy(enc_); }

std::vector<uint8_t> TestOpusToneEncoder::next_packet() {
  std::vector<int16_t> pcm(480);
  for (auto& v : pcm) v = int16_t(10000 * std::sin(2 * std::numbers::pi * hz_ * double(t_++) / 48000));
  std::vector<uint8_t> out(1500);
  const int n = opus_encode(enc_, pcm.data(), 480, out.data(), int(out.size()));
  out.resize(n > 0 ? size_t(n) : 0);
  return out;
}

}  // namespace voxl::testing
