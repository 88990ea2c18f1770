// The viewer's microphone end to end: Opus packets sent by a client reach
// the FIFO as PCM and come out of the PulseAudio pipe source voxl loaded;
// a FIFO nobody reads never blocks voxl.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "platform/pulse/microphone_fifo.h"
#include "pulse_server.h"
#include "stream/viewer/wire_format.h"
#include "tone.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

constexpr double kHz = 440;

std::vector<uint8_t> mic_message(uint32_t sequence, const std::vector<uint8_t>& opus) {
  std::vector<uint8_t> m(stream::kAudioHeaderBytes);
  stream::write_audio_header({stream::kKindMicrophone, sequence, 0},
                             std::span<uint8_t, stream::kAudioHeaderBytes>(m.data(), m.size()));
  m.insert(m.end(), opus.begin(), opus.end());
  return m;
}

bool hello_offers_microphone(const StreamClient& c) {
  for (const auto& t : c.texts())
    if (t.value("type", "") == "hello") return t.value("microphone", false);
  return false;
}

class MicrophoneTest : public VoxlFixture {
 protected:
  void SetUp() override { start_display(0x303030); }
};

TEST_F(MicrophoneTest, ToneFromAClientComesOutOfThePipeSource) {
  PulseServer pulse;
  const std::string fifo = pulse.env()[0].substr(5) + "/mic.fifo";  // inside the server's private HOME
  start_voxl({"--microphone-enabled", "--microphone-fifo=" + fifo, "--audio-enabled=false"}, pulse.env());
  ASSERT_TRUE(voxl_->wait_for_log("PulseAudio source voxl_microphone reads", 30s));
  struct stat st{};
  ASSERT_EQ(stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));

  StreamClient client(client_options());
  ASSERT_TRUE(client.wait_until([&] { return hello_offers_microphone(client); })) << client.status();
  Recorder recorder(pulse.server(), "voxl_microphone");
  TestOpusToneEncoder tone(kHz);
  // Ten seconds at most of real-time microphone audio, 10 ms a packet,
  // until the last half second recorded from the source is the tone.
  bool heard = false;
  std::vector<float> last;
  for (uint32_t seq = 1; seq <= 1000 && !heard; ++seq) {
    client.send_binary(mic_message(seq, tone.next_packet()));
    client.wait_until([] { return false; }, 10ms);  // keeps the socket serviced while pacing
    if (seq % 25 == 0) {
      const auto s = recorder.samples();
      if (s.size() < 24000) continue;
      last.assign(s.end() - 24000, s.end());
      for (float& v : last) v /= 32768.0f;
      heard = has_tone(last, kHz);
    }
  }
  ASSERT_FALSE(recorder.failed());
  EXPECT_TRUE(heard) << "recorded rms " << rms(last) << ", 440 Hz power " << tone_power(last, kHz);
  voxl_->stop();
  EXPECT_NE(stat(fifo.c_str(), &st), 0) << "voxl removes the FIFO it made";
  std::string modules;
  pulse.pactl("list short modules", &modules);
  EXPECT_EQ(modules.find("module-pipe-source"), std::string::npos) << "voxl unloads its pipe source";
}

TEST_F(MicrophoneTest, AFifoNobodyReadsNeverBlocksVoxl) {
  const std::string dir = PulseServer::make_private_dir();
  struct Cleanup {
    std::string dir;
    ~Cleanup() { std::filesystem::remove_all(dir); }
  } cleanup{dir};
  const std::string fifo = dir + "/mic.fifo";
  // No PulseAudio: nothing reads the FIFO.
  start_voxl({"--microphone-enabled", "--microphone-fifo=" + fifo}, PulseServer::env_for(dir));
  EXPECT_TRUE(voxl_->wait_for_log("pactl load-module module-pipe-source", 30s)) << "the pactl line to run by hand";
  StreamClient client(client_options());
  ASSERT_TRUE(client.wait_until([&] { return hello_offers_microphone(client); })) << client.status();
  TestOpusToneEncoder tone(kHz);
  // Five seconds of audio at once: far more than the pipe holds.
  for (uint32_t seq = 1; seq <= 500; ++seq) client.send_binary(mic_message(seq, tone.next_packet()));
  client.send_text(R"({"type":"ping","t":1})");
  ASSERT_TRUE(client.wait_until([&] { return !client.texts().empty() && client.texts().back().value("type", "") == "pong"; }))
      << "voxl stopped answering: " << client.status();
  // What is left in the pipe is the newest audio, at most its size.
  const int fd = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  std::vector<char> buf(1 << 20);
  const ssize_t n = read(fd, buf.data(), buf.size());
  close(fd);
  EXPECT_GT(n, 0);
  EXPECT_LE(n, platform::pulse::MicrophoneFifo::kPipeBytes);
}

TEST_F(MicrophoneTest, OffByDefault) {
  start_voxl();
  StreamClient client(client_options());
  ASSERT_TRUE(client.wait_until([&] { return !client.texts().empty(); })) << client.status();
  EXPECT_FALSE(hello_offers_microphone(client));
}

}  // namespace
}  // namespace voxl::testing
