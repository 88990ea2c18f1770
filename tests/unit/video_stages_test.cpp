// The video thread's stages one by one, over fakes: the capture driver's
// rebuild, the ladder plan, the picture store and a rung's coder.
#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <stdexcept>
#include <vector>

#include "fake_video.h"
#include "stream/video/capture_driver.h"
#include "stream/video/ladder_plan.h"
#include "stream/video/picture_store.h"
#include "stream/video/rung_coder.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using testing::FakeCapturer;
using testing::FakeEncoder;

Logger null_logger() {
  return std::make_shared<spdlog::logger>("video-stages-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

// --- CaptureDriver ---------------------------------------------------------

TEST(CaptureDriver, ALostCapturerIsRemadeThroughOneGrowingBackOff) {
  int attempts = 0;
  CaptureDriver driver(
      std::make_unique<FakeCapturer>(Size{32, 32}),
      [&attempts]() -> std::unique_ptr<capture::Capturer> {
        if (++attempts < 3) throw std::runtime_error("the display is not back yet");
        return std::make_unique<FakeCapturer>(Size{32, 32});
      },
      null_logger(), 0us, 0us);
  EXPECT_FALSE(driver.lost());
  std::vector<Clock::duration> waits;
  ASSERT_TRUE(driver.rebuild("the display went away", [&](Clock::duration d) {
    waits.push_back(d);
    EXPECT_EQ(driver.lost().value_or(""), "the display went away");  // /readyz says why meanwhile
    return true;
  }));
  EXPECT_EQ(attempts, 3);
  ASSERT_EQ(waits.size(), 3u);
  EXPECT_EQ(waits[0], CaptureDriver::kFirstRebuild);
  EXPECT_EQ(waits[1], 2 * CaptureDriver::kFirstRebuild);
  EXPECT_EQ(waits[2], 4 * CaptureDriver::kFirstRebuild);
  EXPECT_FALSE(driver.lost());
  const auto shot = driver.capture(0ms);
  EXPECT_EQ(shot.result.status, capture::CaptureStatus::kOk);  // the new capturer's whole first frame
}

TEST(CaptureDriver, StoppingEndsTheRebuildAndWithoutAFactoryThereIsNone) {
  CaptureDriver remade(
      std::make_unique<FakeCapturer>(Size{32, 32}),
      []() -> std::unique_ptr<capture::Capturer> { throw std::runtime_error("never"); }, null_logger(), 0us, 0us);
  int waits = 0;
  EXPECT_FALSE(remade.rebuild("gone", [&waits](Clock::duration) { return ++waits < 4; }));
  EXPECT_EQ(waits, 4);
  EXPECT_TRUE(remade.lost());
  remade.wake();  // harmless without a capturer

  CaptureDriver fixed(std::make_unique<FakeCapturer>(Size{32, 32}), nullptr, null_logger(), 0us, 0us);
  EXPECT_FALSE(fixed.can_rebuild());
  EXPECT_FALSE(fixed.rebuild("gone", [](Clock::duration) { return true; }));
}

// --- plan_ladder -------------------------------------------------------------

TEST(LadderPlan, ARungCodesWhenWantedReadyAndInItsSlot) {
  const auto now = Clock::now();
  std::vector<RungView> rungs(4);
  rungs[0] = {true, true, false, false, now - 20ms, now - 1ms};      // in its slot
  rungs[1] = {true, true, false, false, now - 5ms, now + 5ms};       // before its slot
  rungs[2] = {true, false, false, false, now - 100ms, now - 50ms};   // congested
  rungs[3] = {false, true, false, false, std::nullopt, now - 1ms};   // no one takes it
  const LadderPlan plan = plan_ladder(rungs, now, 500ms, true);
  EXPECT_TRUE(plan.codes[0]);
  EXPECT_FALSE(plan.codes[1]);
  EXPECT_FALSE(plan.codes[2]);
  EXPECT_FALSE(plan.codes[3]);
  EXPECT_TRUE(plan.any);
  EXPECT_FALSE(plan.other_work);
}

TEST(LadderPlan, AStarvedRungAndAKeyFrameDoNotWait) {
  const auto now = Clock::now();
  std::vector<RungView> rungs(2);
  rungs[0] = {true, false, true, false, now - 600ms, now - 1ms};  // congested past the longest pause
  rungs[1] = {true, true, false, true, now - 5ms, now + 5ms};     // a key frame before its slot
  const LadderPlan plan = plan_ladder(rungs, now, 500ms, true);
  EXPECT_TRUE(plan.codes[0]);
  EXPECT_TRUE(plan.codes[1]);
  EXPECT_TRUE(plan.other_work);  // debt and a key frame, even without new damage
  std::vector<RungView> key_only{{true, true, false, true, now - 5ms, now + 5ms}};
  EXPECT_FALSE(plan_ladder(key_only, now, 500ms, false).other_work) << "no picture to make a key frame of";
}

// --- PictureStore --------------------------------------------------------

TEST(PictureStore, ANewSizeMakesTheWholePictureAnew) {
  PictureStore store(1, encode::ColourRange::kLimited);
  std::vector<uint8_t> pixels(64 * 48 * 4, 0x80);
  capture::Frame frame(pixels.data(), {64, 48}, 64 * 4);
  std::vector<Rect> damage{{0, 0, 8, 8}};
  EXPECT_TRUE(store.take(frame, damage));
  EXPECT_EQ(damage, (std::vector<Rect>{{0, 0, 64, 48}}));
  EXPECT_EQ(store.size(), (Size{64, 48}));
  damage = {{0, 0, 8, 8}};
  EXPECT_FALSE(store.take(frame, damage));
  EXPECT_EQ(damage.size(), 1u);
  EXPECT_FALSE(store.last_is_whole());
  auto kept = std::make_shared<capture::Frame>(pixels.data(), Size{64, 48}, 64 * 4);
  store.keep(kept);
  EXPECT_TRUE(store.last_is_whole());
  const auto& full = store.full_chroma(*kept, false, damage);
  EXPECT_EQ(full.size(), (Size{64, 48}));
  EXPECT_EQ(full.chroma(), encode::ChromaFormat::k444);
}

// --- RungCoder -----------------------------------------------------------

struct CoderFixture {
  PipelineSettings settings;
  PictureStore store{1, encode::ColourRange::kLimited};
  std::vector<uint8_t> pixels = std::vector<uint8_t>(64 * 48 * 4, 0x80);
  capture::Frame frame{pixels.data(), {64, 48}, 64 * 4};
  FrameSchedule schedule{0, 150ms};
  std::vector<std::shared_ptr<encode::EncodedFrame>> out;
  uint32_t ids = 0;

  CoderFixture() {
    std::vector<Rect> damage{Rect::from_size({64, 48})};
    (void)store.take(frame, damage);
  }
  RungJob job(bool change) {
    RungJob j;
    j.got = Clock::now();
    j.change = change;
    j.rects = whole_;
    j.max_kbps = 1000;
    j.source = &frame;
    j.interval = 16ms;
    j.schedule = &schedule;
    return j;
  }
  RungResult code(RungCoder& coder, const RungJob& j) {
    encode::EncodedFrame base;
    base.captured_at = j.got;
    return coder.code(j, store, base, ids, [this](std::shared_ptr<encode::EncodedFrame> f) { out.push_back(f); });
  }

 private:
  std::vector<Rect> whole_{Rect::from_size({64, 48})};
};

TEST(RungCoder, CodesAKeyFrameFirstAndNumbersItsFrames) {
  CoderFixture fx;
  RungCoder coder(1, fx.settings, [](Size s, const encode::EncoderSettings& e) {
    return std::make_unique<FakeEncoder>(s, e);
  }, null_logger());
  EXPECT_EQ(fx.code(coder, fx.job(true)).kind, RungResult::Kind::kCoded);
  EXPECT_EQ(fx.code(coder, fx.job(true)).kind, RungResult::Kind::kCoded);
  EXPECT_EQ(fx.code(coder, fx.job(false)).kind, RungResult::Kind::kIdle);
  ASSERT_EQ(fx.out.size(), 2u);
  EXPECT_TRUE(fx.out[0]->key);
  EXPECT_FALSE(fx.out[1]->key);
  EXPECT_EQ(fx.out[0]->rung, 1);
  EXPECT_EQ(fx.out[1]->id, fx.out[0]->id + 1);
  EXPECT_EQ(fx.out[1]->rung_kbps, 1000);
}

TEST(RungCoder, AnEncoderThatCannotBeMadeIsReportedNotThrown) {
  CoderFixture fx;
  RungCoder coder(1, fx.settings, [](Size, const encode::EncoderSettings&) -> std::unique_ptr<encode::VideoEncoder> {
    throw std::runtime_error("refused");
  }, null_logger());
  auto j = fx.job(true);
  j.key = true;
  const RungResult r = fx.code(coder, j);
  EXPECT_EQ(r.kind, RungResult::Kind::kFailed);
  EXPECT_EQ(r.error, "refused");
  EXPECT_TRUE(r.restore_key);
  EXPECT_TRUE(fx.out.empty());
}

TEST(RungCoder, RungZeroStaysAt420WhenNo444EncoderCanBeMade) {
  CoderFixture fx;
  int tries444 = 0;
  RungCoder coder(0, fx.settings, [&tries444](Size s, const encode::EncoderSettings& e)
                                         -> std::unique_ptr<encode::VideoEncoder> {
    if (e.chroma == encode::ChromaFormat::k444) {
      ++tries444;
      throw std::runtime_error("no 4:4:4 here");
    }
    return std::make_unique<FakeEncoder>(s, e);
  }, null_logger());
  EXPECT_TRUE(coder.full_chroma_possible());
  // A still screen's paintovers, long after the last change: where 4:4:4 starts.
  auto first = fx.job(true);
  ASSERT_EQ(fx.code(coder, first).kind, RungResult::Kind::kCoded);
  for (int i = 1; i <= 3; ++i) {
    auto still = fx.job(false);
    still.full_chroma = true;
    still.paintover = true;
    still.got = first.got + std::chrono::seconds(10 * i);
    EXPECT_NE(fx.code(coder, still).kind, RungResult::Kind::kFailed);
  }
  EXPECT_EQ(tries444, 1) << "a 4:4:4 encoder that failed once is not tried again";
  EXPECT_FALSE(coder.full_chroma_possible());
  EXPECT_FALSE(coder.full_chroma_due(true)) << "no 4:4:4 switch is scheduled any more";
}

}  // namespace
}  // namespace voxl::stream
