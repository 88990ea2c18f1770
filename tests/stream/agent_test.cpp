// The agent endpoints on the real binary against a private Xvfb, drawn on
// by the test: /screenshot pixels and crops, every /wait case, recordings
// checked with ffprobe and a full ffmpeg decode, bad parameters, methods and
// the access rules.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <thread>

#include <nlohmann/json.hpp>

#include "endpoint_fixture.h"
#include "media_probe.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using json = nlohmann::json;

constexpr auto kLogLimit = 30s;

class AgentTest : public EndpointFixture {
 protected:
  // With the debug log: the tests wait for what it says about waits and
  // recordings.
  void start(std::vector<std::string> args = {}) {
    args.push_back("--log-level=debug");
    EndpointFixture::start(args);
  }

  std::future<HttpAnswer> get_async(const std::string& target) {
    const uint16_t port = voxl_->port();
    return std::async(std::launch::async,
                      [port, target] { return http_request(port, {"GET", target, {}}, kRequestLimit); });
  }

  uint64_t seq_now() {
    const HttpAnswer a = get("/wait?idle=0");
    EXPECT_EQ(a.status, 200) << a.body;
    return body_json(a).value("seq", uint64_t(0));
  }

  // Waits until voxl logs that `n` waits are pending.
  void await_waiters(size_t n) {
    ASSERT_TRUE(voxl_->wait_for_log("(" + std::to_string(n) + " waiting)", kLogLimit)) << voxl_->log();
  }

  // Repaints a square in changing colours until `done` is ready.
  template <class T>
  T animate_until(std::future<T>& done, const Rect& r = {100, 100, 64, 64}) {
    uint32_t c = 0;
    while (done.wait_for(15ms) != std::future_status::ready) fill(r, 0x400000 + (c++ * 0x010305 & 0xffffff));
    return done.get();
  }

  static void expect_clean_mp4(const HttpAnswer& a, const Mp4Probe& p) {
    ASSERT_EQ(a.status, 200) << a.body;
    EXPECT_EQ(a.header("content-type"), "video/mp4");
    ASSERT_EQ(p.error, "");
    EXPECT_EQ(p.codec, "h264");
    EXPECT_EQ(p.width, kScreen.width);
    EXPECT_EQ(p.height, kScreen.height);
    EXPECT_EQ(p.decode_status, 0);
    EXPECT_EQ(p.decode_log, "") << "ffmpeg complained while decoding";
    EXPECT_EQ(std::to_string(p.frames), a.header("x-voxl-frames")) << "every frame recorded decodes";
  }
};

// ---- /screenshot

TEST_F(AgentTest, ScreenshotShowsWhatWasDrawn) {
  start();
  fill({40, 30, 100, 50}, 0xff8000);
  fill({600, 440, 40, 40}, 0x00ff7f);
  const HttpAnswer a = get("/screenshot");
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(a.header("content-type"), "image/png");
  EXPECT_FALSE(a.header("x-voxl-seq").empty());
  const DecodedPng png = decode_png(a.body);
  ASSERT_EQ(png.error, "");
  ASSERT_EQ(png.size, kScreen);
  for (int y = 0; y < kScreen.height; ++y)
    for (int x = 0; x < kScreen.width; ++x) {
      const uint32_t want = (x >= 40 && x < 140 && y >= 30 && y < 80) ? 0xff8000
                            : (x >= 600 && y >= 440)                   ? 0x00ff7f
                                                                       : kBackground;
      ASSERT_EQ(png.at(x, y), want) << "at " << x << "," << y;
    }
}

TEST_F(AgentTest, ScreenshotRegionCropsAndReflectsTheLatestDrawing) {
  start();
  for (uint32_t colour : {0x112233u, 0x445566u, 0xa0b0c0u}) {
    fill({0, 0, 640, 480}, kBackground);
    fill({50, 60, 20, 10}, colour);
    const HttpAnswer a = get("/screenshot?region=45,55,30,20");
    ASSERT_EQ(a.status, 200) << a.body;
    const DecodedPng png = decode_png(a.body);
    ASSERT_EQ(png.error, "");
    ASSERT_EQ(png.size, (Size{30, 20}));
    for (int y = 0; y < 20; ++y)
      for (int x = 0; x < 30; ++x) {
        const bool inside = x >= 5 && x < 25 && y >= 5 && y < 15;
        ASSERT_EQ(png.at(x, y), inside ? colour : kBackground) << "at " << x << "," << y;
      }
  }
}

TEST_F(AgentTest, ScreenshotSeqIsWhatWaitSinceUnderstands) {
  start();
  const uint64_t before = std::stoull(get("/screenshot").header("x-voxl-seq"));
  fill({10, 10, 10, 10}, 0xffffff);
  const HttpAnswer after = get("/screenshot");
  const uint64_t seq = std::stoull(after.header("x-voxl-seq"));
  EXPECT_GT(seq, before);
  const json changed = body_json(get("/wait?change&timeout=20000&since=" + std::to_string(before)));
  EXPECT_EQ(changed.value("changed", false), true);
  EXPECT_EQ(changed.value("timed_out", true), false);
  const json same = body_json(get("/wait?change&timeout=300&since=" + std::to_string(seq)));
  EXPECT_EQ(same.value("changed", true), false);
  EXPECT_EQ(same.value("timed_out", false), true);
}

TEST_F(AgentTest, ScreenshotRejectsBadRegions) {
  start();
  expect_error(get("/screenshot?region=600,0,100,100"), 400, "region");
  expect_error(get("/screenshot?region=1,2,3"), 400, "region");
  expect_error(get("/screenshot?region=0,0,0,5"), 400, "region");
  expect_error(get("/screenshot?size=5"), 400, "size");
  EXPECT_EQ(call("POST", "/screenshot").status, 405);
}

// ---- /wait

TEST_F(AgentTest, WaitIdleReturnsOnceTheScreenSettlesAfterAChange) {
  start();
  auto answer = get_async("/wait?idle=400&timeout=30000");
  await_waiters(1);
  for (uint32_t i = 0; i < 5; ++i) fill({200, 200, 50, 50}, 0x100000 * (i + 1));
  const HttpAnswer a = answer.get();
  ASSERT_EQ(a.status, 200) << a.body;
  const json j = body_json(a);
  EXPECT_EQ(j.value("changed", false), true) << a.body;
  EXPECT_EQ(j.value("timed_out", true), false) << a.body;
  EXPECT_GE(j.value("waited_ms", 0), 400) << a.body;
  EXPECT_GT(j.value("seq", 0), 0) << a.body;
  EXPECT_EQ(a.header("x-voxl-seq"), std::to_string(j.value("seq", 0)));
}

TEST_F(AgentTest, WaitIdleOnAStillScreenCountsFromTheRequest) {
  start();
  const json j = body_json(get("/wait?idle=250"));
  EXPECT_EQ(j.value("changed", true), false);
  EXPECT_EQ(j.value("timed_out", true), false);
  EXPECT_GE(j.value("waited_ms", 0), 250);
}

TEST_F(AgentTest, WaitChangeWatchesOnlyItsRegion) {
  start();
  auto outside = get_async("/wait?change&region=0,0,100,100&timeout=1500");
  await_waiters(1);
  fill({300, 300, 20, 20}, 0xffffff);  // not in the region's blocks
  const json o = body_json(outside.get());
  EXPECT_EQ(o.value("changed", true), false);
  EXPECT_EQ(o.value("timed_out", false), true);

  auto inside = get_async("/wait?change&region=0,0,100,100&timeout=30000");
  // Wait 1 was the first; the log already says "(1 waiting)" from it.
  ASSERT_TRUE(voxl_->wait_for_log("wait 2 started", kLogLimit)) << voxl_->log();
  fill({300, 300, 20, 20}, 0x000000);
  fill({110, 20, 4, 4}, 0xffffff);  // x 110 is in the block column 96..111
  const json i = body_json(inside.get());
  EXPECT_EQ(i.value("changed", false), true);
  EXPECT_EQ(i.value("timed_out", true), false);
  EXPECT_LT(i.value("waited_ms", 30000), 30000);
}

TEST_F(AgentTest, WithACaptureRegionScreenshotAndWaitShareItsCoordinates) {
  // The captured area starts at 100,80 on the screen: its 0,0 is what the
  // stream, a whole screenshot and a viewer's clicks call 0,0.
  start({"--capture-region=100,80,320,240"});
  const std::string region = "region=0,0,32,32";
  const uint64_t before_outside = seq_now();
  fill({4, 4, 8, 8}, 0x00ff00);  // on the screen's 0,0 corner: outside the captured area
  const json outside = body_json(get("/wait?change&" + region + "&timeout=300&since=" + std::to_string(before_outside)));
  EXPECT_EQ(outside.value("changed", true), false) << outside.dump();

  const uint64_t before_inside = seq_now();
  fill({104, 84, 8, 8}, 0xff00ff);  // the captured area's 4,4
  const json inside = body_json(get("/wait?change&" + region + "&timeout=30000&since=" + std::to_string(before_inside)));
  EXPECT_EQ(inside.value("changed", false), true) << inside.dump();

  const HttpAnswer shot = get("/screenshot?" + region);
  ASSERT_EQ(shot.status, 200) << shot.body;
  const DecodedPng png = decode_png(shot.body);
  ASSERT_EQ(png.error, "");
  ASSERT_EQ(png.size, (Size{32, 32}));
  EXPECT_EQ(png.at(6, 6), 0xff00ffu) << "what the wait saw change is in the same region's picture";
  EXPECT_EQ(png.at(20, 20), kBackground);
}

TEST_F(AgentTest, WithACaptureRegionAWaitWithoutRegionWatchesTheCapturedArea) {
  start({"--capture-region=100,80,320,240"});
  // A clock beside the captured area never stops: it is not in the picture,
  // so an idle wait still settles.
  auto idle = get_async("/wait?idle=300&timeout=20000");
  const HttpAnswer a = animate_until(idle, {4, 4, 32, 32});
  ASSERT_EQ(a.status, 200) << a.body;
  const json i = body_json(a);
  EXPECT_EQ(i.value("timed_out", true), false) << a.body;
  EXPECT_EQ(i.value("changed", true), false) << a.body;

  const uint64_t before_outside = seq_now();
  fill({450, 350, 20, 20}, 0x00ff00);  // below and right of the captured area
  const json outside = body_json(get("/wait?change&timeout=300&since=" + std::to_string(before_outside)));
  EXPECT_EQ(outside.value("changed", true), false) << outside.dump();

  const uint64_t before_inside = seq_now();
  fill({400, 300, 8, 8}, 0xff00ff);  // the captured area's 300,220
  const json inside = body_json(get("/wait?change&timeout=30000&since=" + std::to_string(before_inside)));
  EXPECT_EQ(inside.value("changed", false), true) << inside.dump();
}

TEST_F(AgentTest, WaitSinceAnOlderSeqReturnsAtOnceAndSinceTheCurrentOneWaits) {
  start();
  const uint64_t old_seq = seq_now();
  fill({5, 5, 5, 5}, 0xff0000);
  const json at_once = body_json(get("/wait?change&since=" + std::to_string(old_seq) + "&timeout=30000"));
  EXPECT_EQ(at_once.value("changed", false), true);
  EXPECT_EQ(at_once.value("timed_out", true), false);
  EXPECT_LT(at_once.value("waited_ms", 30000), 30000);
  const uint64_t current = at_once.value("seq", uint64_t(0));
  EXPECT_GT(current, old_seq);

  const json waits = body_json(get("/wait?change&since=" + std::to_string(current) + "&timeout=400"));
  EXPECT_EQ(waits.value("changed", true), false);
  EXPECT_EQ(waits.value("timed_out", false), true);
  EXPECT_GE(waits.value("waited_ms", 0), 400);

  // A change outside the region after `current` does not count for it.
  fill({400, 400, 5, 5}, 0x00ff00);
  const json region = body_json(get("/wait?change&region=0,0,32,32&since=" + std::to_string(current) +
                                    "&timeout=300"));
  EXPECT_EQ(region.value("changed", true), false);
  const json whole = body_json(get("/wait?change&since=" + std::to_string(current) + "&timeout=30000"));
  EXPECT_EQ(whole.value("changed", false), true);
}

TEST_F(AgentTest, WaitTimesOut) {
  start();
  const json j = body_json(get("/wait?change&timeout=200"));
  EXPECT_EQ(j.value("changed", true), false);
  EXPECT_EQ(j.value("timed_out", false), true);
  EXPECT_GE(j.value("waited_ms", 0), 200);
  const json idle = body_json(get("/wait?idle=5000&timeout=100"));
  EXPECT_EQ(idle.value("timed_out", false), true);
}

TEST_F(AgentTest, ManyWaitersAreAllAnswered) {
  start();
  constexpr int kWaiters = 24;
  std::vector<std::future<HttpAnswer>> answers;
  for (int i = 0; i < kWaiters; ++i)
    answers.push_back(get_async(i % 2 ? "/wait?change&timeout=60000" : "/wait?change&region=100,100,10,10&timeout=60000"));
  await_waiters(kWaiters);
  fill({104, 104, 2, 2}, 0xffffff);
  for (auto& f : answers) {
    const HttpAnswer a = f.get();
    ASSERT_EQ(a.status, 200) << a.body;
    EXPECT_EQ(body_json(a).value("changed", false), true) << a.body;
  }
}

TEST_F(AgentTest, AClientThatHangsUpFreesItsWaiter) {
  start();
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(voxl_->port());
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  const std::string req = "GET /wait?change&timeout=300000 HTTP/1.1\r\nHost: 127.0.0.1:" +
                          std::to_string(voxl_->port()) + "\r\n\r\n";
  ASSERT_EQ(::write(s, req.data(), req.size()), ssize_t(req.size()));
  await_waiters(1);
  ::close(s);
  EXPECT_TRUE(voxl_->wait_for_log("its client left (0 waiting)", kLogLimit)) << voxl_->log();
  // The server carries on.
  EXPECT_EQ(body_json(get("/wait?idle=0")).value("timed_out", true), false);
}

TEST_F(AgentTest, WaitRejectsBadParameters) {
  start();
  expect_error(get("/wait?idle=abc"), 400, "idle");
  expect_error(get("/wait?idle=-1"), 400, "idle");
  expect_error(get("/wait?timeout=1.5"), 400, "timeout");
  expect_error(get("/wait?region=1,2,3"), 400, "region");
  expect_error(get("/wait?since=99999999"), 400, "since");
  expect_error(get("/wait?since=x"), 400, "since");
  expect_error(get("/wait?change=perhaps"), 400, "change");
  expect_error(get("/wait?idel=300"), 400, "idel");
  expect_error(get("/wait?idle=1&idle=2"), 400, "idle");
  const HttpAnswer post = call("POST", "/wait");
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.header("allow"), "GET");
}

TEST_F(AgentTest, EndpointsKeepTheAccessRules) {
  start({"--enable-basic-auth", "--basic-auth-password=s3cret"});
  for (const char* path : {"/screenshot", "/wait?idle=0", "/record?seconds=1"})
    EXPECT_EQ(get(path).status, 401) << path;
  EXPECT_EQ(call("POST", "/record/start").status, 401);
  const auto auth = std::make_pair(std::string("Authorization"), basic_authorization("voxl", "s3cret"));
  EXPECT_EQ(call("GET", "/screenshot", {auth}).status, 200);
  EXPECT_EQ(call("GET", "/wait?idle=0", {auth}).status, 200);
  EXPECT_EQ(call("GET", "/wait?idle=0", {auth, {"Host", "evil.example"}}).status, 403);
}

TEST_F(AgentTest, ViewOnlyCredentialsAndForeignPagesDoNotControlRecordings) {
  start({"--enable-basic-auth", "--basic-auth-password=s3cret", "--basic-auth-viewonly-password=look",
         "--max-record-seconds=1"});
  const auto full = std::make_pair(std::string("Authorization"), basic_authorization("voxl", "s3cret"));
  const auto view = std::make_pair(std::string("Authorization"), basic_authorization("voxl", "look"));
  // Watching is allowed.
  EXPECT_EQ(call("GET", "/screenshot", {view}).status, 200);
  EXPECT_EQ(call("GET", "/wait?idle=0", {view}).status, 200);
  // Starting is not, and starts nothing.
  const HttpAnswer refused = call("POST", "/record/start", {view});
  expect_error(refused, 403, "");
  EXPECT_NE(body_json(refused).value("error", "").find("view-only"), std::string::npos) << refused.body;
  EXPECT_EQ(voxl_->log().find("recording 1 started"), std::string::npos) << voxl_->log();
  // Nor is stopping another client's recording, which carries on to its
  // longest length and is still there for its owner.
  const HttpAnswer started = call("POST", "/record/start", {full});
  ASSERT_EQ(started.status, 200) << started.body;
  const std::string id = std::to_string(body_json(started).value("id", uint64_t(0)));
  ASSERT_TRUE(voxl_->wait_for_log("recording " + id + " started", kLogLimit)) << voxl_->log();
  expect_error(call("POST", "/record/stop?id=" + id, {view}), 403, "");
  // Nor from a page on another site, with full credentials or not.
  expect_error(call("POST", "/record/stop?id=" + id, {full, {"Origin", "http://evil.example"}}), 403, "");
  expect_error(call("POST", "/record/start", {full, {"Origin", "http://evil.example"}}), 403, "");
  ASSERT_TRUE(voxl_->wait_for_log("recording " + id + " ended (max-record-seconds)", kLogLimit)) << voxl_->log();
  const HttpAnswer a = call("POST", "/record/stop?id=" + id, {full});
  expect_clean_mp4(a, probe_mp4(a.body));
  EXPECT_EQ(a.header("x-voxl-ended"), "max-record-seconds");
}

// ---- /record

TEST_F(AgentTest, RecordForSecondsGivesThatLongAClip) {
  start();
  auto clip = get_async("/record?seconds=2");
  const HttpAnswer a = animate_until(clip);
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean_mp4(a, p);
  EXPECT_NEAR(p.duration, 2.0, 0.1);
  EXPECT_GE(p.frames, 10) << "the square was repainted all along";
  // At most the pacer's rate: the cap plus its one catch-up frame a second
  // (stream/video/frame_pacer.h), and the first frame.
  EXPECT_LE(p.frames, 2 * (60 + 1) + 1);
  EXPECT_EQ(a.header("x-voxl-ended"), "length");
}

TEST_F(AgentTest, RecordOfAStillScreenLastsItsLengthToo) {
  start();
  const HttpAnswer a = get("/record?seconds=1");
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean_mp4(a, p);
  EXPECT_NEAR(p.duration, 1.0, 0.1);
  EXPECT_GE(p.frames, 1);
}

TEST_F(AgentTest, RecordStartAndStop) {
  start();
  const HttpAnswer started = call("POST", "/record/start");
  ASSERT_EQ(started.status, 200) << started.body;
  const uint64_t id = body_json(started).value("id", uint64_t(0));
  ASSERT_GT(id, 0u);
  ASSERT_TRUE(voxl_->wait_for_log("recording " + std::to_string(id) + " started", kLogLimit));
  const auto t0 = std::chrono::steady_clock::now();
  auto enough = std::async(std::launch::async, [&] {
    // Long enough for many frames: the test's own clock, not a pass/fail timing.
    while (std::chrono::steady_clock::now() - t0 < 1500ms) std::this_thread::sleep_for(50ms);
    return true;
  });
  animate_until(enough);
  const uint16_t port = voxl_->port();
  auto stopped = std::async(std::launch::async, [port, id] {
    return http_request(port, {"POST", "/record/stop?id=" + std::to_string(id), {}}, kRequestLimit);
  });
  const HttpAnswer a = animate_until(stopped);
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean_mp4(a, p);
  EXPECT_GE(p.duration, 1.0);
  EXPECT_GE(p.frames, 10);
  EXPECT_EQ(a.header("x-voxl-ended"), "stop");
  // Stopped means gone.
  expect_error(call("POST", "/record/stop?id=" + std::to_string(id)), 404, "id");
}

TEST_F(AgentTest, RecordEndsAtTheLongestAllowedLength) {
  start({"--max-record-seconds=1"});
  const HttpAnswer started = call("POST", "/record/start");
  const uint64_t id = body_json(started).value("id", uint64_t(0));
  ASSERT_GT(id, 0u) << started.body;
  ASSERT_TRUE(voxl_->wait_for_log("recording " + std::to_string(id) + " ended (max-record-seconds)", kLogLimit))
      << voxl_->log();
  const HttpAnswer a = call("POST", "/record/stop?id=" + std::to_string(id));
  const Mp4Probe p = probe_mp4(a.body);
  expect_clean_mp4(a, p);
  EXPECT_NEAR(p.duration, 1.0, 0.1);
  EXPECT_EQ(a.header("x-voxl-ended"), "max-record-seconds");
  expect_error(get("/record?seconds=2"), 400, "seconds");
}

TEST_F(AgentTest, TwoRecordingsAtOnce) {
  start();
  auto one = get_async("/record?seconds=1");
  auto two = get_async("/record?seconds=2");
  const HttpAnswer a = animate_until(one);
  const HttpAnswer b = animate_until(two);
  const Mp4Probe pa = probe_mp4(a.body), pb = probe_mp4(b.body);
  expect_clean_mp4(a, pa);
  expect_clean_mp4(b, pb);
  EXPECT_NEAR(pa.duration, 1.0, 0.1);
  EXPECT_NEAR(pb.duration, 2.0, 0.1);
  EXPECT_GT(pb.frames, pa.frames);
}

TEST_F(AgentTest, RecordForSecondsIsRefusedForForeignPages) {
  start();
  // A page on another site can point a <video> here from the user's browser.
  const HttpAnswer a = call("GET", "/record?seconds=1", {{"Origin", "http://evil.example"}});
  expect_error(a, 403, "");
  EXPECT_NE(body_json(a).value("error", "").find("foreign origin"), std::string::npos) << a.body;
  EXPECT_EQ(voxl_->log().find("recording 1 started"), std::string::npos) << voxl_->log();
  // The server's own page may.
  const std::string own = "http://127.0.0.1:" + std::to_string(voxl_->port());
  auto clip = std::async(std::launch::async, [port = voxl_->port(), own] {
    return http_request(port, {"GET", "/record?seconds=1", {{"Origin", own}}}, kRequestLimit);
  });
  EXPECT_EQ(animate_until(clip).status, 200);
}

TEST_F(AgentTest, RecordingsTogetherEndAtTheDiskCap) {
  start({"--max-record-mb=1"});
  auto clip = get_async("/record?seconds=50");
  // Noise the encoder cannot squeeze: many small squares of random colours.
  uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1103515245 + 12345; };
  while (clip.wait_for(5ms) != std::future_status::ready)
    for (int i = 0; i < 64; ++i)
      fill({int(next() % (kScreen.width - 16)), int(next() % (kScreen.height - 16)), 16, 16}, next() & 0xffffff);
  const HttpAnswer a = clip.get();
  expect_clean_mp4(a, probe_mp4(a.body));
  EXPECT_EQ(a.header("x-voxl-ended"), "max-record-mb");
  EXPECT_LE(a.body.size(), size_t(1 << 20) + 64 * 1024) << "the cap plus the index";
  // Its bytes are given back once it is fetched.
  auto again = get_async("/record?seconds=1");
  EXPECT_EQ(animate_until(again).status, 200);
}

TEST_F(AgentTest, WaitLongerThanTheFlagAllowsIsRefusedNamingIt) {
  start({"--max-wait-seconds=2"});
  const HttpAnswer a = get("/wait?timeout=2001");
  expect_error(a, 400, "timeout");
  EXPECT_NE(body_json(a).value("error", "").find("--max-wait-seconds=2"), std::string::npos) << a.body;
  expect_error(get("/wait?idle=2001"), 400, "idle");
  EXPECT_EQ(get("/wait?idle=0&timeout=2000").status, 200);
}

TEST_F(AgentTest, WaitTimeoutDefaultsToAtMostFiveMinutes) {
  start();
  const HttpAnswer a = get("/wait?timeout=300001");
  expect_error(a, 400, "timeout");
  EXPECT_NE(body_json(a).value("error", "").find("--max-wait-seconds=300"), std::string::npos) << a.body;
}

TEST_F(AgentTest, RecordRejectsBadParameters) {
  start();
  expect_error(get("/record"), 400, "seconds");
  expect_error(get("/record?seconds=0"), 400, "seconds");
  expect_error(get("/record?seconds=301"), 400, "seconds");
  expect_error(get("/record?seconds=two"), 400, "seconds");
  expect_error(call("POST", "/record/stop"), 400, "id");
  expect_error(call("POST", "/record/stop?id=abc"), 400, "id");
  expect_error(call("POST", "/record/stop?id=4242"), 404, "id");
  expect_error(call("POST", "/record/start?seconds=3"), 400, "seconds");
  EXPECT_EQ(call("GET", "/record/start").status, 405);
  EXPECT_EQ(call("GET", "/record/stop?id=1").status, 405);
  EXPECT_EQ(call("POST", "/record?seconds=1").status, 405);
}

class AgentResizeTest : public AgentTest {};

TEST_F(AgentResizeTest, AResizeEndsTheRecording) {
  // Started larger so RandR can switch down to 640x480.
  platform::x11::VirtualDisplayOptions o;
  o.size = {800, 600};
  display_.emplace(o);
  painter_.emplace(display_->name());
  fill({0, 0, 800, 600}, kBackground);
  start_voxl({"--log-level=debug"});
  const HttpAnswer started = call("POST", "/record/start");
  const uint64_t id = body_json(started).value("id", uint64_t(0));
  ASSERT_GT(id, 0u) << started.body;
  ASSERT_TRUE(voxl_->wait_for_log("recording " + std::to_string(id) + " started", kLogLimit));
  auto first = get_async("/wait?idle=200");
  animate_until(first);  // some frames at 800x600
  const std::string env = "DISPLAY=" + display_->name() + " ";
  const std::string cmd = env + "xrandr --newmode voxlrec 25.18 640 656 752 800 480 490 492 525 && " + env +
                          "xrandr --addmode screen voxlrec && " + env + "xrandr --output screen --mode voxlrec";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto ended = std::async(std::launch::async, [&] {
    return voxl_->wait_for_log("recording " + std::to_string(id) + " ended (resize)", kLogLimit);
  });
  ASSERT_TRUE(animate_until(ended)) << voxl_->log();
  const HttpAnswer a = call("POST", "/record/stop?id=" + std::to_string(id));
  ASSERT_EQ(a.status, 200) << a.body;
  const Mp4Probe p = probe_mp4(a.body);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.width, 800);
  EXPECT_EQ(p.height, 600);
  EXPECT_EQ(p.decode_log, "");
  EXPECT_EQ(std::to_string(p.frames), a.header("x-voxl-frames"));
  EXPECT_EQ(a.header("x-voxl-ended"), "resize");
}

TEST_F(AgentResizeTest, ScreenshotAndInputFollowTheScreensSize) {
  platform::x11::VirtualDisplayOptions o;
  o.size = {800, 600};
  display_.emplace(o);
  painter_.emplace(display_->name());
  fill({0, 0, 800, 600}, kBackground);
  start_voxl();
  const auto shot_size = [&] {
    const HttpAnswer a = get("/screenshot");
    EXPECT_EQ(a.status, 200) << a.body;
    return decode_png(a.body).size;
  };
  EXPECT_EQ(shot_size(), (Size{800, 600}));
  const std::string env = "DISPLAY=" + display_->name() + " ";
  const auto randr = [&](const std::string& what) {
    const std::string cmd = env + "xrandr " + what;
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  };
  randr("--newmode voxlsmall 25.18 640 656 752 800 480 490 492 525");
  randr("--addmode screen voxlsmall");
  randr("--output screen --mode voxlsmall");
  EXPECT_EQ(shot_size(), (Size{640, 480}));
  // /input checks positions against the screen's size now.
  const HttpAnswer refused = call("POST", "/input", R"({"type":"move","x":700,"y":10})");
  expect_error(refused, 400, "x");
  EXPECT_NE(refused.body.find("640x480"), std::string::npos) << refused.body;
  // Back to the larger size: the whole of it is shot, not the part that
  // was there before.
  randr("--output screen --mode 800x600");
  EXPECT_EQ(shot_size(), (Size{800, 600}));
  EXPECT_EQ(call("POST", "/input", R"({"type":"move","x":700,"y":10})").status, 200);
}

}  // namespace
}  // namespace voxl::testing
