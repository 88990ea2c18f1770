// WASAPI where there may be no sound device (Wine without a sound
// server): opening fails with a reason or yields a source that reads; the
// conversion to 48 kHz stereo s16 on its own.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "audio/audio_format.h"
#include "base/logging.h"
#include "platform/windows/audio/pcm_converter.h"
#include "platform/windows/audio/wasapi_loopback_source.h"
#include "platform/windows/audio/wasapi_microphone_sink.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {
namespace {

TEST(WasapiLoopback, OpensOrSaysWhyNot) {
  Logger log = make_stderr_logger("test");
  auto open = wasapi_loopback_opener("", log);
  std::string error;
  auto source = open(error);
  if (!source) {
    EXPECT_FALSE(error.empty()) << "no source and no reason";
    std::cerr << "loopback not available here: " << error << "\n";
    return;
  }
  std::array<int16_t, audio::kFrameSamples * audio::kDesktopChannels> pcm{};
  const auto status = source->read(pcm, error);
  EXPECT_TRUE(status == audio::SourceStatus::kOk || !error.empty());
}

TEST(WasapiLoopback, AnUnknownDeviceIsNamedInTheError) {
  auto open = wasapi_loopback_opener("no such device 1234", make_stderr_logger("test"));
  std::string error;
  EXPECT_EQ(open(error), nullptr);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(wasapi_loopback_label(""), "the default output device (WASAPI loopback)");
}

TEST(WasapiMicrophone, ThrowsWhenNoCableIsThereOrPlays) {
  try {
    WasapiMicrophoneSink sink("", make_stderr_logger("test"));
    std::vector<int16_t> pcm(audio::kFrameSamples, 1000);
    for (int i = 0; i < 50; ++i) sink.write(pcm);  // more than the buffer: drops, never blocks
    EXPECT_FALSE(sink.describe().empty());
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("microphone"), std::string::npos) << e.what();
  }
}

TEST(PcmConverter, SameRateStereoInt16PassesThrough) {
  PcmConverter c(SampleType::kInt16, 2, 48000);
  std::vector<int16_t> in;
  for (int i = 0; i < 100; ++i) {
    in.push_back(int16_t(i * 100));
    in.push_back(int16_t(-i * 100));
  }
  c.push(in.data(), 100, false);
  std::vector<int16_t> out(200);
  const size_t n = c.pop(out);
  ASSERT_GE(n, 198u);  // one frame waits for the next to interpolate
  for (size_t i = 0; i < n; ++i) EXPECT_NEAR(out[i], in[i], 1) << i;
}

TEST(PcmConverter, MonoFloatIsCopiedToBothSides) {
  PcmConverter c(SampleType::kFloat32, 1, 48000);
  std::vector<float> in(10, 0.5f);
  c.push(in.data(), in.size(), false);
  std::vector<int16_t> out(18);
  ASSERT_EQ(c.pop(out), 18u);
  for (int16_t s : out) EXPECT_EQ(s, 16383);
}

TEST(PcmConverter, ResamplesTo48kAndKeepsTheFrontPair) {
  // 0.4 s of 44.1 kHz 6-channel float: about 19200 frames come out.
  PcmConverter c(SampleType::kFloat32, 6, 44100);
  std::vector<float> in(size_t(4410) * 6);
  for (size_t f = 0; f < 4410; ++f) {
    in[f * 6 + 0] = 0.25f;
    in[f * 6 + 1] = -0.25f;
    in[f * 6 + 2] = 0.9f;  // centre: dropped
  }
  for (int i = 0; i < 4; ++i) c.push(in.data(), 4410, false);
  EXPECT_NEAR(double(c.buffered_frames()), 19200.0, 2.0);
  std::vector<int16_t> out(2000);
  ASSERT_EQ(c.pop(out), 2000u);
  EXPECT_NEAR(out[100], 8191, 2);
  EXPECT_NEAR(out[101], -8191, 2);
}

TEST(PcmConverter, SilentPacketsAndTheBound) {
  PcmConverter c(SampleType::kInt16, 2, 48000);
  c.push(nullptr, PcmConverter::kMaxBufferedFrames * 2, true);
  EXPECT_EQ(c.buffered_frames(), PcmConverter::kMaxBufferedFrames);
  EXPECT_GT(c.dropped_frames(), 0u);
}

}  // namespace
}  // namespace voxl::platform::windows

namespace voxl::platform::windows {
namespace {

TEST(WindowsErrors, WasapiCodesAreNamed) {
  EXPECT_EQ(describe_hresult("the capture client", long(0x88890003)),
            "the capture client: AUDCLNT_E_WRONG_ENDPOINT_TYPE (0x88890003)");
  EXPECT_EQ(system_message(0x88890004), "AUDCLNT_E_DEVICE_INVALIDATED");
}

}  // namespace
}  // namespace voxl::platform::windows
