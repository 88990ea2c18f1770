// Binary WebSocket messages a viewer sends: the audio header (kind 3, the
// microphone) and, for the same bytes, the video header readers (stamps and
// stripe part included); then each
// accepted packet goes where the server sends it, audio::Microphone (Opus
// decoding, loss concealment, speaker hand-over), into a sink that only
// checks what it is given: whole mono packets of at most 120 ms.
#include <fuzzer/FuzzedDataProvider.h>

#include <spdlog/sinks/null_sink.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "audio/audio_format.h"
#include "audio/microphone.h"
#include "fuzz_check.h"
#include "stream/viewer/wire_format.h"

namespace VOXL_TEST_FILE {

using namespace voxl;

class CheckingSink final : public audio::MicrophoneSink {
 public:
  void write(std::span<const int16_t> pcm) override {
    FUZZ_CHECK(pcm.size() % audio::kMicrophoneChannels == 0);
    FUZZ_CHECK(pcm.size() <= size_t(audio::kSampleRate) * 120 / 1000 * audio::kMicrophoneChannels);
  }
  std::string describe() const override { return "a checking sink"; }
};

// One microphone for the whole run; every input starts with no speaker, so
// a fresh decoder.
audio::Microphone* g_mic = nullptr;
const int g_speakers[3] = {};

void check_headers(std::span<const uint8_t> m) {
  size_t off = 12345;
  if (const auto h = stream::read_audio_header(m, stream::kKindMicrophone, off)) {
    FUZZ_CHECK(h->kind == stream::kKindMicrophone);
    FUZZ_CHECK(off >= stream::kAudioHeaderBytes && off <= m.size());
    // Written back, the known fields read the same.
    std::array<uint8_t, stream::kAudioHeaderBytes> again{};
    stream::write_audio_header(*h, again);
    size_t off2 = 0;
    const auto h2 = stream::read_audio_header(again, stream::kKindMicrophone, off2);
    FUZZ_CHECK(h2 && h2->sequence == h->sequence && h2->capture_us == h->capture_us &&
               off2 == stream::kAudioHeaderBytes);
    FUZZ_CHECK(std::memcmp(again.data() + 4, m.data() + 4, 12) == 0);
  } else {
    FUZZ_CHECK(off == 12345);
  }
  FUZZ_CHECK(!stream::read_audio_header(m, stream::kKindAudio, off) || m[0] == stream::kKindAudio);
  size_t voff = 0;
  if (const auto v = stream::read_video_header(m, voff))
    FUZZ_CHECK(m[0] == stream::kKindVideo && voff >= stream::kVideoHeaderBytes && voff <= m.size());
  // Stage stamps only behind a video header long enough to hold them.
  if (stream::read_video_stamps(m)) {
    size_t soff = 0;
    FUZZ_CHECK(stream::read_video_header(m, soff) && soff >= stream::kVideoHeaderWithStampsBytes);
  }
  // The stripe part likewise, and it writes back to the same bytes.
  if (const auto s = stream::read_video_stripe(m)) {
    size_t soff = 0;
    const auto h = stream::read_video_header(m, soff);
    FUZZ_CHECK(h && soff >= stream::kVideoHeaderWithStripeBytes);
    FUZZ_CHECK(stream::read_video_stamps(m).has_value());
    std::array<uint8_t, stream::kVideoHeaderWithStripeBytes> again{};
    stream::write_video_header(*h, *stream::read_video_stamps(m), *s, again);
    FUZZ_CHECK(std::memcmp(again.data() + 44, m.data() + 44, 6) == 0);
    FUZZ_CHECK((again[50] & stream::kStripeFlagLast) == (m[50] & stream::kStripeFlagLast));
  }
}

}  // namespace

VOXL_FUZZ_INITIALIZE(audio_header) {
  g_mic = new audio::Microphone(std::make_unique<CheckingSink>(),
                                std::make_shared<spdlog::logger>("fuzz", std::make_shared<spdlog::sinks::null_sink_mt>()));
  return 0;
}

VOXL_FUZZ_TARGET(audio_header) {
  FuzzedDataProvider in(data, size);
  audio::Microphone& mic = *g_mic;
  for (const int& s : g_speakers) mic.forget(&s);
  const uint64_t packets_before = mic.packets(), bad_before = mic.bad_packets();
  uint64_t accepted = 0;
  while (in.remaining_bytes() > 0) {
    const int* speaker = &g_speakers[in.ConsumeIntegralInRange<int>(0, 2)];
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) {
      mic.forget(speaker);
      continue;
    }
    const std::vector<uint8_t> m = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 1500));
    check_headers(m);
    size_t off = 0;
    const auto h = stream::read_audio_header(m, stream::kKindMicrophone, off);
    if (!h) continue;
    const uint64_t before = mic.packets();
    mic.on_packet(speaker, h->sequence, std::span(m).subspan(off));
    FUZZ_CHECK(mic.packets() - before <= 1);
    accepted += mic.packets() - before;
  }
  FUZZ_CHECK(mic.packets() - packets_before == accepted && mic.bad_packets() - bad_before <= accepted);
  return 0;
}
