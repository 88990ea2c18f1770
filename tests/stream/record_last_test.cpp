// /record?last= on the real binary: with --record-buffer-seconds the stream
// of the last seconds is kept with no viewer, and a clip of it comes back
// at once (or after `seconds` more), starts at a key frame, lasts what was
// asked (up to one key interval more) and decodes clean; asking for more
// than is held gives what is held, and says so; without the buffer, with
// stripes or with bad values it is refused.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "animator.h"
#include "endpoint_fixture.h"
#include "media_probe.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

constexpr auto kLogLimit = 30s;
// RecordService::kBufferKeyInterval: a clip may begin this much before
// what was asked for.
constexpr double kKeyInterval = 2.0;
// Rounding of the MP4's times and the request's own time.
constexpr double kSlack = 0.15;

class RecordLastTest : public EndpointFixture {
 protected:
  // voxl with `args`, once its buffer is attached to the stream.
  void start_buffered(const std::vector<std::string>& args) {
    start(args);
    ASSERT_TRUE(voxl_->wait_for_log("for /record?last=", kLogLimit)) << voxl_->log();
  }

  // Paints for `how_long` with no viewer connected.
  void animate_for(std::chrono::milliseconds how_long) {
    Animator animator(display_->name(), {100, 100, 64, 64}, 30);
    std::this_thread::sleep_for(how_long);
    EXPECT_GT(animator.changes(), 0u);
  }

  static int64_t header_ms(const HttpAnswer& a, const std::string& name) {
    const std::string v = a.header(name);
    EXPECT_FALSE(v.empty()) << name << " is missing";
    return v.empty() ? -1 : std::stoll(v);
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
  start_buffered({"--record-buffer-seconds=10"});
  animate_for(4500ms);
  const auto asked = std::chrono::steady_clock::now();
  const HttpAnswer a = get("/record?last=3");
  const auto took = std::chrono::steady_clock::now() - asked;
  EXPECT_LT(took, 10s) << "no waiting for the future";
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean(a, p);
  // From the key frame at or before 3 s ago: at most one key interval more.
  EXPECT_GE(p.duration, 3.0 - kSlack) << a.header("x-voxl-before-ms");
  EXPECT_LE(p.duration, 3.0 + kKeyInterval + kSlack) << a.header("x-voxl-before-ms");
  EXPECT_GE(p.frames, 30) << "the square was repainted all along, with no viewer";
  EXPECT_EQ(a.header("x-voxl-ended"), "length");
  const int64_t before = header_ms(a, "x-voxl-before-ms");
  EXPECT_GE(before, 3000);
  EXPECT_LE(before, 5000 + 150);
  EXPECT_GE(header_ms(a, "x-voxl-buffered-ms"), 3000) << "it held more than was asked for";
  // A shorter window gives a shorter clip, from a later key frame (one at
  // least every 2 s while the screen changed).
  const HttpAnswer b = get("/record?last=1");
  const Mp4Probe q = probe_mp4(b.body);
  expect_clean(b, q);
  EXPECT_LE(q.duration, 1.0 + kKeyInterval + kSlack);
  EXPECT_LT(q.duration, p.duration);
}

TEST_F(RecordLastTest, LastAndSecondsSpanBeforeAndAfter) {
  start_buffered({"--record-buffer-seconds=10"});
  animate_for(3000ms);
  const uint16_t port = voxl_->port();
  const auto asked = std::chrono::steady_clock::now();
  auto clip = std::async(std::launch::async,
                         [port] { return http_request(port, {"GET", "/record?last=2&seconds=2", {}}, kRequestLimit); });
  Animator animator(display_->name(), {100, 100, 64, 64}, 30);
  const HttpAnswer a = clip.get();
  EXPECT_GE(std::chrono::steady_clock::now() - asked, 2s) << "the 2 s after the request are in it";
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean(a, p);
  EXPECT_GE(p.duration, 4.0 - kSlack);
  EXPECT_LE(p.duration, 4.0 + kKeyInterval + kSlack);
  EXPECT_EQ(a.header("x-voxl-ended"), "length");
  EXPECT_GE(header_ms(a, "x-voxl-before-ms"), 2000);
}

TEST_F(RecordLastTest, MoreThanIsHeldGivesWhatIsHeldAndSaysSo) {
  start_buffered({"--record-buffer-seconds=60"});
  animate_for(2000ms);
  const HttpAnswer a = get("/record?last=60");
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean(a, p);
  const int64_t buffered = header_ms(a, "x-voxl-buffered-ms");
  EXPECT_GE(buffered, 1900);
  EXPECT_LT(buffered, 60000) << "less than asked for was held";
  EXPECT_EQ(header_ms(a, "x-voxl-before-ms"), buffered) << "the clip is all of it";
  EXPECT_NEAR(p.duration * 1000, double(buffered), 150);
}

TEST_F(RecordLastTest, WithoutTheBufferItIsRefused) {
  start();
  const HttpAnswer a = get("/record?last=5");
  expect_error(a, 409, "last");
  EXPECT_NE(body_json(a).value("error", "").find("--record-buffer-seconds"), std::string::npos) << a.body;
  // seconds alone keeps its meaning.
  Animator animator(display_->name(), {100, 100, 64, 64}, 30);
  const HttpAnswer b = get("/record?seconds=1");
  EXPECT_EQ(b.status, 200) << b.body;
}

TEST_F(RecordLastTest, StripesMakeItUnavailable) {
  start({"--stripes=2", "--record-buffer-seconds=5"});
  const HttpAnswer a = get("/record?last=2");
  expect_error(a, 409, "");
  EXPECT_NE(body_json(a).value("error", "").find("--stripes"), std::string::npos) << a.body;
}

TEST_F(RecordLastTest, BadValuesAreNamed) {
  start_buffered({"--record-buffer-seconds=5"});
  expect_error(get("/record?last=6"), 400, "last");
  expect_error(get("/record?last=0"), 400, "last");
  expect_error(get("/record?last=-1"), 400, "last");
  expect_error(get("/record?last=two"), 400, "last");
  expect_error(get("/record?last="), 400, "last");
  expect_error(get("/record?last=2&seconds=0"), 400, "seconds");
  expect_error(get("/record?last=2&seconds=100000"), 400, "seconds");
  expect_error(get("/record?last=2&since=1"), 400, "since");
  // A foreign origin is refused before anything is looked at.
  expect_error(call("GET", "/record?last=2", {{"Origin", "http://evil.example"}}), 403, "");
}

}  // namespace
}  // namespace voxl::testing
