#include "stream/fanout/stream_stats.h"

#include <gtest/gtest.h>

#include <chrono>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using encode::EncodedFrame;

// A fixed, arbitrary origin: nothing here reads the real clock.
const Clock::time_point kT0 = Clock::time_point(1000s);

EncodedFrame make_frame(size_t bytes, bool key, encode::StageTimes times = {},
                        Clock::time_point captured_at = kT0) {
  EncodedFrame f;
  f.data.assign(bytes, 0);
  f.key = key;
  f.size = {1280, 720};
  f.codec = "avc1.42C01F";
  f.times = times;
  f.captured_at = captured_at;
  return f;
}

RungFigures stats_at(const StreamStats& s, Clock::time_point now) { return s.figures(now); }

TEST(StreamStats, EmptyStatsAreAllZero) {
  const StreamStats s;
  const auto r = stats_at(s, kT0);
  EXPECT_EQ(r.fps, 0u);
  EXPECT_EQ(r.kbps, 0u);
  EXPECT_EQ(r.key_frames, 0u);
  EXPECT_EQ(r.frames_total, 0u);
  EXPECT_EQ(r.codec, "");
  EXPECT_EQ(r.stage_ms.capture, 0.0);
  EXPECT_EQ(r.stage_ms.to_loop, 0.0);
}

TEST(StreamStats, CountsFramesKeyFramesAndBitrateOverTheLastSecond) {
  StreamStats s;
  // 30 frames of 1000 bytes, 1/30 s apart, the first and the 16th key frames.
  for (int i = 0; i < 30; ++i) {
    const auto at = kT0 + i * 33ms;
    s.add(make_frame(1000, i == 0 || i == 15, {}, at), at);
  }
  const auto r = stats_at(s, kT0 + 29 * 33ms);
  EXPECT_EQ(r.fps, 30u);
  EXPECT_EQ(r.kbps, 240u);  // 30 * 1000 bytes * 8 / 1000
  EXPECT_EQ(r.key_frames, 2u);
  EXPECT_EQ(r.frames_total, 30u);
}

TEST(StreamStats, ReportsTheLatestSizeAndCodec) {
  StreamStats s;
  s.add(make_frame(10, true), kT0);
  EncodedFrame f = make_frame(10, true);
  f.size = {1920, 1080};
  f.codec = "avc1.42C028";
  s.add(f, kT0 + 10ms);
  const auto r = stats_at(s, kT0 + 10ms);
  EXPECT_EQ(r.size.width, 1920);
  EXPECT_EQ(r.size.height, 1080);
  EXPECT_EQ(r.codec, "avc1.42C028");
}

TEST(StreamStats, StageTimesAreMediansInMilliseconds) {
  StreamStats s;
  // Out of order on purpose; the medians are the middle values.
  const encode::StageTimes times[] = {
      {5000, 100, 9000}, {1000, 500, 1000}, {3000, 300, 7000}, {2000, 200, 3000}, {4000, 400, 5000}};
  const uint32_t to_loop_us[] = {20000, 12000, 16000, 14000, 18000};
  for (int i = 0; i < 5; ++i) {
    const auto published = kT0 + i * 10ms;
    const auto captured = published - std::chrono::microseconds(to_loop_us[i]);
    s.add(make_frame(100, i == 0, times[i], captured), published);
  }
  const auto stage = stats_at(s, kT0 + 40ms).stage_ms;
  EXPECT_DOUBLE_EQ(stage.capture, 3.0);
  EXPECT_DOUBLE_EQ(stage.convert, 0.3);
  EXPECT_DOUBLE_EQ(stage.encode, 5.0);
  EXPECT_DOUBLE_EQ(stage.to_loop, 16.0);
}

TEST(StreamStats, CaptureAfterPublishCountsAsZeroPipelineTime) {
  StreamStats s;
  s.add(make_frame(100, true, {}, kT0 + 5ms), kT0);
  EXPECT_EQ(stats_at(s, kT0).stage_ms.to_loop, 0.0);
}

TEST(StreamStats, OldSamplesFallOutOfTheWindow) {
  StreamStats s;
  s.add(make_frame(1000, true, {1000, 0, 0}), kT0);
  s.add(make_frame(2000, false, {2000, 0, 0}), kT0 + 600ms);
  s.add(make_frame(4000, false, {4000, 0, 0}), kT0 + 1200ms);

  auto r = stats_at(s, kT0 + 1200ms);
  EXPECT_EQ(r.fps, 2u) << "the frame at t0 is 1.2 s old";
  EXPECT_EQ(r.kbps, 48u);  // 6000 bytes in the last second
  EXPECT_EQ(r.key_frames, 0u);
  EXPECT_EQ(r.frames_total, 3u);
  EXPECT_DOUBLE_EQ(r.stage_ms.capture, 4.0);  // upper median of {2, 4}

  r = stats_at(s, kT0 + 1700ms);
  EXPECT_EQ(r.fps, 1u);
  EXPECT_EQ(r.kbps, 32u);
  EXPECT_DOUBLE_EQ(r.stage_ms.capture, 4.0);
}

TEST(StreamStats, WindowIsOneSecondInclusive) {
  StreamStats s;
  s.add(make_frame(100, true), kT0);
  EXPECT_EQ(stats_at(s, kT0 + 1s).fps, 1u);
  EXPECT_EQ(stats_at(s, kT0 + 1s + 1us).fps, 0u);
}

TEST(StreamStats, IdleStreamKeepsTotalsSizeAndCodec) {
  StreamStats s;
  s.add(make_frame(500, true), kT0);
  s.add(make_frame(500, false), kT0 + 16ms);
  const auto r = stats_at(s, kT0 + 10s);
  EXPECT_EQ(r.fps, 0u);
  EXPECT_EQ(r.kbps, 0u);
  EXPECT_EQ(r.key_frames, 0u);
  EXPECT_EQ(r.frames_total, 2u);
  EXPECT_EQ(r.size.width, 1280);
  EXPECT_EQ(r.codec, "avc1.42C01F");
  EXPECT_EQ(r.stage_ms.encode, 0.0);
}

TEST(StreamStats, LongRunsStayBoundedToTheWindow) {
  StreamStats s;
  // Ten seconds at 60 fps; only the last second's frames count.
  for (int i = 0; i < 600; ++i) {
    const auto at = kT0 + std::chrono::microseconds(int64_t(i) * 1'000'000 / 60);
    s.add(make_frame(100, i % 60 == 0), at);
  }
  const auto last = kT0 + std::chrono::microseconds(int64_t(599) * 1'000'000 / 60);
  const auto r = stats_at(s, last);
  EXPECT_EQ(r.fps, 61u);  // 60 intervals of 1/60 s fit in the inclusive second
  EXPECT_EQ(r.key_frames, 1u);
  EXPECT_EQ(r.frames_total, 600u);
}

}  // namespace
}  // namespace voxl::stream
