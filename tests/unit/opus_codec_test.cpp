#include "audio/opus_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "audio/audio_format.h"

namespace voxl::audio {
namespace VOXL_TEST_FILE {

// Goertzel power of `hz` over mono samples, normalised by length.
double tone_power(const std::vector<double>& x, double hz) {
  const double w = 2 * std::numbers::pi * hz / kSampleRate;
  double s1 = 0, s2 = 0;
  for (double v : x) {
    const double s = v + 2 * std::cos(w) * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (s1 * s1 + s2 * s2 - 2 * std::cos(w) * s1 * s2) / double(x.size() * x.size());
}

TEST(OpusCodec, A440ToneSurvivesTheRoundTrip) {
  OpusPacketEncoder enc(kSampleRate, kDesktopChannels, 128000);
  OpusPacketDecoder dec(kSampleRate, kDesktopChannels);
  std::vector<int16_t> pcm(kFrameSamples * kDesktopChannels);
  std::vector<uint8_t> packet;
  std::vector<int16_t> out;
  std::vector<double> left;
  int t = 0;
  for (int frame = 0; frame < 50; ++frame) {
    for (int i = 0; i < kFrameSamples; ++i, ++t) {
      const auto v = int16_t(8000 * std::sin(2 * std::numbers::pi * 440 * t / kSampleRate));
      pcm[2 * i] = pcm[2 * i + 1] = v;
    }
    ASSERT_TRUE(enc.encode(pcm, packet));
    ASSERT_FALSE(packet.empty());
    EXPECT_LT(packet.size(), 400u) << "128 kbit/s is 160 bytes per 10 ms, give or take";
    ASSERT_TRUE(dec.decode(packet, out));
    ASSERT_EQ(out.size(), pcm.size());
    if (frame >= 10)
      for (int i = 0; i < kFrameSamples; ++i) left.push_back(out[2 * i]);
  }
  EXPECT_GT(tone_power(left, 440), 100 * tone_power(left, 660));
  EXPECT_GT(tone_power(left, 440), 100 * tone_power(left, 300));
}

TEST(OpusCodec, EmptyPacketConcealsOneFrameAndGarbageIsRefused) {
  OpusPacketDecoder dec(kSampleRate, kMicrophoneChannels);
  std::vector<int16_t> out;
  ASSERT_TRUE(dec.decode({}, out));
  EXPECT_EQ(out.size(), size_t(kFrameSamples));
  // A TOC byte asking for code 3 with a frame count of 0 is invalid.
  const std::vector<uint8_t> bad{0x03, 0x00};
  EXPECT_FALSE(dec.decode(bad, out));
}

TEST(OpusCodec, BadSettingsThrowAtConstruction) {
  EXPECT_THROW(OpusPacketEncoder(44100 + 1, 2, 128000), std::runtime_error);
  EXPECT_THROW(OpusPacketDecoder(kSampleRate, 3), std::runtime_error);
}

}  // namespace
}  // namespace voxl::audio
