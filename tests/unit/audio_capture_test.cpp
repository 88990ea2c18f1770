// The audio thread's recovery: a sound server that is not there yet is said
// once and tried again through the back-off; one that goes away mid-stream
// is said and reopened; packets flow from whichever source is open. Real
// Opus, a scripted source in place of PulseAudio.
#include "audio/audio_capture.h"

#include <gtest/gtest.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace voxl::audio {
namespace VOXL_TEST_FILE {

constexpr auto kDeadline = std::chrono::seconds(60);

// Gives `frames` frames of a quiet tone, a frame's time apart as a device
// would, then says the server went away (frames < 0: never).
class ScriptedSource : public AudioSource {
 public:
  explicit ScriptedSource(int frames) : left_(frames) {}
  SourceStatus read(std::span<int16_t> pcm, std::string& error) override {
    if (left_ == 0) {
      error = "the server went away";
      return SourceStatus::kLost;
    }
    if (left_ > 0) --left_;
    std::this_thread::sleep_for(kFrameDuration);  // the device's own pace
    for (size_t i = 0; i < pcm.size(); ++i) pcm[i] = int16_t((i % 96) * 40 - 1920);
    return SourceStatus::kOk;
  }

 private:
  int left_;
};

struct Received {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<uint32_t> sequences;

  bool wait_for(size_t n) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, kDeadline, [&] { return sequences.size() >= n; });
  }
};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(AudioCapture, AMissingServerIsSaidOnceAndOneLostMidStreamIsReopened) {
  std::ostringstream log_text;
  Logger log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log_text));
  std::mutex opens_mu;
  int opens = 0;
  // First refused, then a source that is lost after 3 frames, then one that lasts.
  SourceOpener open = [&](std::string& error) -> std::unique_ptr<AudioSource> {
    std::lock_guard lock(opens_mu);
    switch (++opens) {
      case 1:
        error = "Connection refused";
        return nullptr;
      case 2:
        return std::make_unique<ScriptedSource>(3);
      default:
        return std::make_unique<ScriptedSource>(-1);
    }
  };
  Received got;
  {
    AudioCapture capture(open, {"test-device", 64000}, log, [&](AudioPacketPtr p) {
      std::lock_guard lock(got.mu);
      got.sequences.push_back(p->sequence);
      got.cv.notify_all();
    });
    capture.set_active(true);
    ASSERT_TRUE(got.wait_for(8)) << "packets from the second and third sources";
  }  // joins the audio thread: the log is whole from here on
  const std::string text = log_text.str();
  EXPECT_EQ(count(text, "no audio from test-device (Connection refused)"), 1u) << text;
  EXPECT_EQ(count(text, "lost audio from test-device (the server went away)"), 1u) << text;
  EXPECT_EQ(count(text, "audio from test-device is back"), 2u) << text;
  EXPECT_EQ(count(text, "capturing audio from"), 0u) << "every open came after a failure\n" << text;
  std::lock_guard lock(got.mu);
  for (size_t i = 0; i < got.sequences.size(); ++i) EXPECT_EQ(got.sequences[i], i + 1) << "one sequence across sources";
  std::lock_guard opens_lock(opens_mu);
  EXPECT_EQ(opens, 3);
}

TEST(AudioCapture, NobodyListeningOpensNothing) {
  std::ostringstream log_text;
  Logger log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log_text));
  std::mutex opens_mu;
  int opens = 0;
  SourceOpener open = [&](std::string&) -> std::unique_ptr<AudioSource> {
    std::lock_guard lock(opens_mu);
    ++opens;
    return std::make_unique<ScriptedSource>(-1);
  };
  { AudioCapture capture(open, {"test-device", 64000}, log, [](AudioPacketPtr) {}); }
  std::lock_guard lock(opens_mu);
  EXPECT_EQ(opens, 0);
}

}  // namespace
}  // namespace voxl::audio
