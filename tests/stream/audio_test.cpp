// Desktop audio end to end: a tone played into a private PulseAudio's null
// sink comes out of a real voxl process as Opus that decodes to the same
// tone; no viewer means no capture; audio off sends nothing; no PulseAudio
// means video alone, and sound once a server appears.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <thread>
#include <string>
#include <vector>

#include "pulse_server.h"
#include "tone.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

constexpr double kHz = 440;
constexpr size_t kSecond = 100;  // 10 ms packets

std::vector<float> decode_all(const std::vector<StreamClient::AudioMessage>& msgs, size_t from) {
  TestOpusDecoder dec(2);
  std::vector<float> out;
  for (size_t i = 0; i < msgs.size(); ++i) {
    std::vector<float> pcm;
    EXPECT_TRUE(dec.decode(msgs[i].packet, pcm)) << "packet " << i;
    if (i >= from) out.insert(out.end(), pcm.begin(), pcm.end());
  }
  return out;
}

bool has_text(const StreamClient& c, const std::string& type) {
  for (const auto& t : c.texts())
    if (t.value("type", "") == type) return true;
  return false;
}

class AudioTest : public VoxlFixture {
 protected:
  void SetUp() override { start_display(0x303030); }

  // Source outputs (recording streams) on the server: voxl's capture.
  static int recording_streams(const PulseServer& pulse) {
    std::string out;
    if (pulse.pactl("list short source-outputs", &out) != 0) return -1;
    return int(std::count(out.begin(), out.end(), '\n'));
  }

  // Waits, with a deadline, until `pred` holds; pactl is the only way to
  // ask the server from outside, so this asks a few times a second.
  static bool eventually(const std::function<bool()>& pred, std::chrono::seconds limit = 30s) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!pred()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(100ms);
    }
    return true;
  }
};

TEST_F(AudioTest, ToneInTheSinkArrivesAsOpusAt440Hz) {
  PulseServer pulse;
  TonePlayer tone(pulse.server(), PulseServer::kSink, kHz);
  start_voxl({}, pulse.env());  // the default device: the default sink's monitor
  StreamClient client(client_options());
  ASSERT_TRUE(client.wait_until([&] { return client.audio().size() >= 2 * kSecond; }))
      << "audio packets: " << client.audio().size() << "; " << client.status();
  ASSERT_FALSE(tone.failed());

  // The audio message came before the first packet and says what to expect.
  bool announced = false;
  for (const auto& t : client.texts())
    if (t.value("type", "") == "audio") {
      announced = true;
      EXPECT_EQ(t.value("codec", ""), "opus");
      EXPECT_EQ(t.value("rate", 0), 48000);
      EXPECT_EQ(t.value("channels", 0), 2);
    }
  EXPECT_TRUE(announced);

  const auto& msgs = client.audio();
  for (size_t i = 1; i < msgs.size(); ++i) {
    EXPECT_GT(int32_t(msgs[i].header.sequence - msgs[i - 1].header.sequence), 0) << "packet " << i;
    EXPECT_GE(msgs[i].header.capture_us, msgs[i - 1].header.capture_us) << "packet " << i;
  }
  for (const auto& m : msgs) {
    EXPECT_LE(m.header.capture_us, m.received_wall_us) << "captured after it arrived";
    EXPECT_GT(m.header.capture_us + 10'000'000, m.received_wall_us) << "a capture time 10 s old";
  }
  // Skip the first half second (the stream settling), then the tone.
  const auto pcm = decode_all(msgs, kSecond / 2);
  EXPECT_EQ(pcm.size(), (msgs.size() - kSecond / 2) * 480) << "10 ms packets of 48 kHz";
  EXPECT_TRUE(has_tone(pcm, kHz)) << "rms " << rms(pcm) << ", 440 Hz power " << tone_power(pcm, kHz)
                                  << ", 660 Hz " << tone_power(pcm, 660);
  EXPECT_FALSE(has_tone(pcm, 1000));
}

TEST_F(AudioTest, NoViewerNoCapture) {
  PulseServer pulse;
  start_voxl({"--audio-device-name=vsink.monitor"}, pulse.env());
  EXPECT_EQ(recording_streams(pulse), 0);
  {
    StreamClient client(client_options());
    ASSERT_TRUE(client.wait_until([&] { return !client.audio().empty(); })) << client.status();
    EXPECT_EQ(recording_streams(pulse), 1);
  }
  EXPECT_TRUE(eventually([&] { return recording_streams(pulse) == 0; }))
      << "voxl still records with nobody watching";
  // And again for the next viewer.
  StreamClient again(client_options());
  ASSERT_TRUE(again.wait_until([&] { return !again.audio().empty(); })) << again.status();
}

TEST_F(AudioTest, AudioDisabledSendsNothingAndRecordsNothing) {
  PulseServer pulse;
  TonePlayer tone(pulse.server(), PulseServer::kSink, kHz);
  start_voxl({"--audio-enabled=false"}, pulse.env());
  StreamClient client(client_options());
  // A second of stream with video flowing: not one audio message.
  ASSERT_TRUE(client.wait_until([&] { return client.picture().has_value(); })) << client.status();
  fill(Rect{0, 0, 64, 64}, 0xff0000);
  client.wait_until([] { return false; }, 1s);
  EXPECT_TRUE(client.audio().empty());
  EXPECT_FALSE(has_text(client, "audio"));
  EXPECT_EQ(recording_streams(pulse), 0);
}

TEST_F(AudioTest, NoPulseAudioGivesVideoAloneThenSoundWhenAServerAppears) {
  const std::string dir = PulseServer::make_private_dir();
  struct Cleanup {
    std::string dir;
    ~Cleanup() { std::filesystem::remove_all(dir); }
  } cleanup{dir};
  start_voxl({}, PulseServer::env_for(dir));
  StreamClient client(client_options());
  fill(Rect{0, 0, 64, 64}, 0x00ff00);
  ASSERT_TRUE(client.wait_for_colour(32, 32, 0x00ff00)) << client.status();
  EXPECT_TRUE(voxl_->wait_for_log("no audio from", 30s));
  EXPECT_TRUE(client.audio().empty());

  // The server appears; voxl finds it on its next try (back-off at most 10 s).
  PulseServer pulse(dir);
  TonePlayer tone(pulse.server(), PulseServer::kSink, kHz);
  ASSERT_TRUE(client.wait_until([&] { return client.audio().size() >= kSecond; }, 60s))
      << "no audio after the server appeared; " << client.status();
  EXPECT_TRUE(voxl_->wait_for_log("is back", 5s));
  const std::string log = voxl_->log();
  size_t said = 0;
  for (size_t at = log.find("no audio from"); at != std::string::npos; at = log.find("no audio from", at + 1))
    ++said;
  EXPECT_EQ(said, 1u) << "the missing server is reported once";
  const auto pcm = decode_all(client.audio(), client.audio().size() / 2);
  EXPECT_TRUE(has_tone(pcm, kHz)) << "rms " << rms(pcm);
}

}  // namespace
}  // namespace voxl::testing
