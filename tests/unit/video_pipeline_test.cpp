// The video thread over a fake screen and fake encoders: what a viewer
// would see when a stage fails, without a display or x264.
#include "stream/video/video_pipeline.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>

#include "fake_video.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using testing::FakeCapturer;
using testing::FakeEncoder;

Logger null_logger() {
  return std::make_shared<spdlog::logger>("video-pipeline-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

// What the pipeline hands out, for the test thread to wait on.
struct Output {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::shared_ptr<encode::EncodedFrame>> frames;
  std::optional<std::string> stopped;
  int budget = 0;  // the newest ladder budget the pipeline announced

  template <class Pred>
  bool wait(Pred pred, std::chrono::seconds deadline = 20s) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, deadline, [&] { return pred(); });
  }
  int frames_of(int rung) {
    int n = 0;
    for (const auto& f : frames) n += f->rung == rung;
    return n;
  }
};

PipelineSettings two_rungs() {
  PipelineSettings s;
  s.max_encodes = 2;
  s.convert_threads = 1;
  s.coalesce_us = 0;
  s.paintover_burst = 0;
  s.full_chroma = false;
  return s;
}

// The bug: a lower rung whose encoder could not be made stopped the whole
// video (and with it the daemon), while a failed 4:4:4 encoder was
// survived. One rung failing drops that rung: rung 0 goes on, and the
// ladder affords one rung fewer.
TEST(VideoPipeline, ALowerRungThatCannotBeCodedIsDroppedAndTheVideoGoesOn) {
  auto out = std::make_shared<Output>();
  auto screen = std::make_unique<FakeCapturer>(Size{64, 48});
  FakeCapturer* fake = screen.get();
  constexpr int kLowerKbps = 321;
  VideoPipeline pipeline(
      std::move(screen), nullptr, two_rungs(), null_logger(),
      [out](std::shared_ptr<encode::EncodedFrame> f) {
        std::lock_guard lock(out->mu);
        out->frames.push_back(std::move(f));
        out->cv.notify_all();
      },
      [out](const std::string& why) {
        std::lock_guard lock(out->mu);
        out->stopped = why;
        out->cv.notify_all();
      },
      [](Size size, const encode::EncoderSettings& s) -> std::unique_ptr<encode::VideoEncoder> {
        if (s.max_kbps == kLowerKbps) throw std::runtime_error("x264 refused the lower rung");
        return std::make_unique<FakeEncoder>(size, s);
      },
      [out](int rungs, int) {
        std::lock_guard lock(out->mu);
        out->budget = rungs;
        out->cv.notify_all();
      });
  pipeline.set_max_kbps(1, kLowerKbps);
  pipeline.set_active(true);
  ASSERT_TRUE(out->wait([&] { return out->frames_of(0) >= 1; })) << "no first frame";
  pipeline.set_rung(1, true, true);
  for (int i = 0; i < 5; ++i) {
    fake->change({0, 0, 16, 16});
    const int before = [&] { std::lock_guard lock(out->mu); return out->frames_of(0); }();
    ASSERT_TRUE(out->wait([&] { return out->stopped || out->frames_of(0) > before; }))
        << "rung 0 stopped making frames";
  }
  std::lock_guard lock(out->mu);
  EXPECT_FALSE(out->stopped) << "the video stopped: " << out->stopped.value_or("");
  EXPECT_EQ(out->frames_of(1), 0);
  EXPECT_EQ(out->budget, 1) << "the ladder should afford one rung fewer";
}

}  // namespace
}  // namespace voxl::stream
