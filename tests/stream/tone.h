// Tone generation and detection for audio tests, and an Opus decoder for
// what a client receives (libopus directly, independent of voxl's wrapper).
// Pure functions and a single-thread decoder.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

struct OpusDecoder;
struct OpusEncoder;

namespace voxl::testing {

// Goertzel power at `hz` (48 kHz samples), normalised by length squared.
double tone_power(std::span<const float> x, double hz);
double rms(std::span<const float> x);

// True when `x` is clearly a tone of `hz`: loud enough and far stronger
// there than at nearby and harmonic frequencies.
bool has_tone(std::span<const float> x, double hz);

// The first sample index at which `x` gets loud (|x| above `threshold`),
// or -1.
long onset(std::span<const float> x, float threshold);

// Opus packets -> the first channel as floats in [-1, 1].
class TestOpusDecoder {
 public:
  explicit TestOpusDecoder(int channels);
  ~TestOpusDecoder();
  TestOpusDecoder(const TestOpusDecoder&) = delete;
  TestOpusDecoder& operator=(const TestOpusDecoder&) = delete;
  // Appends the decoded first channel to `out`; false on a bad packet.
  bool decode(std::span<const uint8_t> packet, std::vector<float>& out);

 private:
  OpusDecoder* dec_ = nullptr;
  int channels_;
};

// A mono sine, 10 ms at a time, as Opus packets (what a browser's
// AudioEncoder sends for the microphone).
class TestOpusToneEncoder {
 public:
  explicit TestOpusToneEncoder(double hz);
  ~TestOpusToneEncoder();
  TestOpusToneEncoder(const TestOpusToneEncoder&) = delete;
  TestOpusToneEncoder& operator=(const TestOpusToneEncoder&) = delete;
  std::vector<uint8_t> next_packet();

 private:
  OpusEncoder* enc_ = nullptr;
  double hz_;
  uint64_t t_ = 0;
};

}  // namespace voxl::testing
