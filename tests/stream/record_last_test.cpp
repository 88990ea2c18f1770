// /record?last= on the real binary: with --record-buffer-seconds the stream
// of the last seconds is kept with no viewer, and a clip of it comes back
// at once (or after `seconds` more), starts at a key frame, lasts what was
// asked and decodes clean; without the buffer it is refused.
#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "animator.h"
#include "endpoint_fixture.h"
#include "media_probe.h"

namespace voxl::testing {
namespace {

using namespace std::chrono_literals;

class RecordLastTest : public EndpointFixture {
 protected:
  // Paints for `how_long` with no viewer connected.
  void animate_for(std::chrono::milliseconds how_long) {
    Animator animator(display_->name(), {100, 100, 64, 64}, 30);
    const auto until = std::chrono::steady_clock::now() + how_long;
    while (std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(50ms);
  }

  static void expect_clean(const HttpAnswer& a, const Mp4Probe& p) {
    ASSERT_EQ(a.status, 200) << a.body;
    EXPECT_EQ(a.header("content-type"), "video/mp4");
    ASSERT_EQ(p.error, "");
    EXPECT_EQ(p.codec, "h264");
    EXPECT_EQ(p.width, kScreen.width);
    EXPECT_EQ(p.height, kScreen.height);
    EXPECT_TRUE(p.first_frame_key) << "a clip starts at a key frame";
    EXPECT_EQ(p.decode_status, 0);
    EXPECT_EQ(p.decode_log, "") << "ffmpeg complained while decoding";
    EXPECT_EQ(std::to_string(p.frames), a.header("x-voxl-frames"));
  }
};

TEST_F(RecordLastTest, TheLastSecondsComeBackAtOnceFromAKeyFrame) {
  start({"--record-buffer-seconds=10"});
  animate_for(4500ms);
  const auto t0 = std::chrono::steady_clock::now();
  const HttpAnswer a = get("/record?last=3");
  const auto took = std::chrono::steady_clock::now() - t0;
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean(a, p);
  // From the key frame at or before 3 s ago: at most one key interval (2 s)
  // more, and a little for the time the animation stopped before the ask.
  EXPECT_GE(p.duration, 2.9) << a.header("x-voxl-before-ms");
  EXPECT_LE(p.duration, 5.5) << a.header("x-voxl-before-ms");
  EXPECT_GE(p.frames, 30) << "the square was repainted all along";
  EXPECT_FALSE(a.header("x-voxl-before-ms").empty());
  EXPECT_LT(took, 10s) << "no waiting for the future";
  // Several key frames were asked for while it changed (one at least
  // every 2 s), so a second, shorter clip starts later.
  const HttpAnswer b = get("/record?last=1");
  const Mp4Probe q = probe_mp4(b.body);
  expect_clean(b, q);
  EXPECT_LT(q.duration, p.duration);
}

TEST_F(RecordLastTest, LastAndSecondsSpanBeforeAndAfter) {
  start({"--record-buffer-seconds=10"});
  animate_for(3000ms);
  const uint16_t port = voxl_->port();
  auto clip = std::async(std::launch::async,
                         [port] { return http_request(port, {"GET", "/record?last=2&seconds=2", {}}, kRequestLimit); });
  Animator animator(display_->name(), {100, 100, 64, 64}, 30);
  const HttpAnswer a = clip.get();
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean(a, p);
  EXPECT_GE(p.duration, 3.9);
  EXPECT_LE(p.duration, 6.5);
  EXPECT_EQ(a.header("x-voxl-ended"), "length");
}

TEST_F(RecordLastTest, WithoutTheBufferOrWithBadValuesItIsRefused) {
  start();
  expect_error(get("/record?last=5"), 409, "last");
  EXPECT_NE(body_json(get("/record?last=5")).value("error", "").find("--record-buffer-seconds"), std::string::npos);
}

TEST_F(RecordLastTest, BadValuesAreNamed) {
  start({"--record-buffer-seconds=5"});
  expect_error(get("/record?last=6"), 400, "last");
  expect_error(get("/record?last=0"), 400, "last");
  expect_error(get("/record?last=two"), 400, "last");
  expect_error(get("/record?last=2&seconds=0"), 400, "seconds");
  expect_error(get("/record?last=2&seconds=100000"), 400, "seconds");
}

}  // namespace
}  // namespace voxl::testing
