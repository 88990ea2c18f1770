// ViewerConnection over a recording fake transport: what a viewer's
// messages make voxl do, what is refused, and the limits on both
// directions. Times come from a clock the test moves.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

#include "viewer_connection_fixture.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using namespace std::chrono_literals;
using viewer_testing::FakeTransport;
using viewer_testing::frame;
using viewer_testing::ViewerConnectionTest;

TEST_F(ViewerConnectionTest, SaysHelloAndAnswersPings) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  c.receive_text(R"({"type":"ping","t":12.5})");
  flush(c, t);
  ASSERT_EQ(t.of("hello").size(), 1u);
  EXPECT_EQ(t.of("hello")[0]["view_only"], false);
  ASSERT_EQ(t.of("interaction").size(), 1u);
  const auto pongs = t.of("pong");
  ASSERT_EQ(pongs.size(), 1u);
  EXPECT_EQ(pongs[0]["t"], 12.5);
  EXPECT_EQ(pongs[0]["server_us"], 42);
  EXPECT_EQ(hub.sinks(), 1u);
}

// The messages of issue 13 that ended the daemon: now ignored.
TEST_F(ViewerConnectionTest, WrongTypesAreIgnoredNotFatal) {
  for (const bool view_only : {false, true}) {
    FakeTransport t;
    ViewerConnection c(t, services(), ViewerGrant::from_view_only(view_only), clocks());
    c.start(1);
    c.dispatch_text(R"({"type":"ping","t":"x"})");
    c.dispatch_text(R"({"type":"stats","enabled":1})");
    c.dispatch_text(R"({"type":"ack","id":-1})");
    c.dispatch_text(R"({"type":"ack","id":1,"hold_ms":"soon"})");
    c.dispatch_text(R"({"type":"keyframe","reason":7})");
    c.dispatch_text(R"({"type":7})");
    c.dispatch_text(R"({"type":"key","code":5,"down":true})");
    c.dispatch_text(R"([1,2,3])");
    c.dispatch_text("not json");
    c.dispatch_text("{\"type\":\"ping\",\"t\":1,\"x\":\"\xff\xfe\"}");
    c.dispatch_text(R"({"type":"nonsense"})");
    flush(c, t);
    EXPECT_FALSE(t.closed);
    EXPECT_TRUE(t.of("pong").empty());
    EXPECT_FALSE(t.ticking);
    EXPECT_GE(c.ignored(), 10u);
    EXPECT_TRUE(inj.log.empty());
  }
}

TEST_F(ViewerConnectionTest, StatsAreSentWhileAskedFor) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  c.receive_text(R"({"type":"stats","enabled":true})");
  EXPECT_TRUE(t.ticking);
  c.tick();
  flush(c, t);
  const auto stats = t.of("stats");
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_TRUE(stats[0]["viewer"].contains("queued_frames"));
  c.receive_text(R"({"type":"stats","enabled":false})");
  EXPECT_FALSE(t.ticking);
  c.tick();
  flush(c, t);
  EXPECT_EQ(t.of("stats").size(), 1u);
}

TEST_F(ViewerConnectionTest, StatsCarryTheStreamFigures) {
  FakeTransport t;
  ViewerServices with_figures = services();
  with_figures.stream_figures = [] {
    StreamFigures f;
    f.stream.fps = 42;
    f.stream.codec = "avc1.42C01F";
    f.ladder.emplace().rungs.push_back({0, 1, 5000, f.stream});
    return f;
  };
  ViewerConnection c(t, with_figures, ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  c.receive_text(R"({"type":"stats","enabled":true})");
  c.tick();
  flush(c, t);
  const auto stats = t.of("stats");
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0]["type"], "stats");
  EXPECT_EQ(stats[0]["fps"], 42);
  EXPECT_EQ(stats[0]["codec"], "avc1.42C01F");
  EXPECT_EQ(stats[0]["ladder"]["rungs"][0]["target_kbps"], 5000);
  EXPECT_TRUE(stats[0]["viewer"].contains("queued_frames"));
}

TEST_F(ViewerConnectionTest, DeepNestingIsRefusedBeforeParsing) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  const auto before = c.ignored();
  c.dispatch_text(std::string(ClientLimits::kMaxControlMessageBytes, '['));
  std::string deep = R"({"type":"ping","t":1,"x":)" + std::string(100, '[') + std::string(100, ']') + "}";
  c.dispatch_text(deep);
  EXPECT_EQ(c.ignored(), before + 2);
  std::string ok = R"({"type":"ping","t":1,"x":)" + std::string(10, '[') + std::string(10, ']') + "}";
  c.dispatch_text(ok);
  flush(c, t);
  EXPECT_EQ(t.of("pong").size(), 1u);
}

TEST_F(ViewerConnectionTest, SizeLimitsByTypeAndRole) {
  EXPECT_EQ(ClientLimits::max_text_bytes("clipboard", false), ClientLimits::kMaxClipboardMessageBytes);
  EXPECT_EQ(ClientLimits::max_text_bytes("clipboard", true), ClientLimits::kMaxControlMessageBytes);
  EXPECT_EQ(ClientLimits::max_text_bytes("ping", false), ClientLimits::kMaxControlMessageBytes);
  EXPECT_EQ(ClientLimits::read_limit(true), ClientLimits::kMaxControlMessageBytes);
  EXPECT_EQ(ClientLimits::read_limit(false), ClientLimits::kMaxClipboardMessageBytes);

  const std::string pad(32 * 1024, 'a');
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  c.dispatch_text(R"({"type":"ping","t":1,"pad":")" + pad + "\"}");
  c.dispatch_text(R"({"type":"clipboard","mime":"text/plain","text":")" + pad + "\"}");
  flush(c, t);
  EXPECT_TRUE(t.of("pong").empty()) << "a large ping is ignored";
  ASSERT_EQ(clip.offered.size(), 1u) << "a large clipboard from a full viewer is taken";
  EXPECT_EQ(clip.offered[0].data, pad);

  FakeTransport tv;
  ViewerConnection v(tv, services(), ViewerGrant::from_view_only(true), clocks());
  v.start(2);
  const auto before = v.ignored();
  v.dispatch_text(R"({"type":"clipboard","mime":"text/plain","text":")" + pad + "\"}");
  EXPECT_EQ(v.ignored(), before + 1) << "not from a view-only viewer";
}

TEST_F(ViewerConnectionTest, BadInputFieldsIgnoreTheMessage) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  c.dispatch_text(R"({"type":"move","x":10,"y":"20"})");
  c.dispatch_text(R"({"type":"button","button":1,"down":"yes","x":1,"y":1})");
  c.dispatch_text(R"({"type":"scroll","dx":1e308,"dy":0,"unit":"px"})");
  c.dispatch_text(R"({"type":"key","code":"KeyA","key":"a","down":true,"mods":-4})");
  EXPECT_TRUE(inj.log.empty());
  c.dispatch_text(R"({"type":"move","x":10.7,"y":20})");
  EXPECT_EQ(inj.log, (std::vector<std::string>{"move 10 20"}));
}

TEST_F(ViewerConnectionTest, KeyFrameRequestsGoThroughABucket) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  // Joining asked for one; let it arrive.
  hub.publish(frame(1, true));
  flush(c, t);
  const int base = pipeline.keyframe_requests;
  for (int i = 0; i < 3; ++i) {
    clock += 400ms;  // past the hub's minimum interval
    c.receive_text(R"({"type":"keyframe","reason":"decoder error"})");
    hub.publish(frame(10 + i, true));
    flush(c, t);
  }
  EXPECT_EQ(pipeline.keyframe_requests, base + 3) << "the burst";
  clock += 400ms;
  c.receive_text(R"({"type":"keyframe","reason":"again"})");
  c.receive_text(R"({"type":"keyframe","reason":"and again"})");
  EXPECT_EQ(pipeline.keyframe_requests, base + 3) << "the bucket is empty";
  EXPECT_EQ(c.keyframes_put_off(), 1u);
  // A delta frame before the refill does not bring it; one after does.
  hub.publish(frame(20, false));
  EXPECT_EQ(pipeline.keyframe_requests, base + 3);
  clock += 2s;
  hub.publish(frame(21, false));
  EXPECT_EQ(pipeline.keyframe_requests, base + 4) << "the request put off is made, not dropped";
  hub.publish(frame(22, true));
  clock += 10s;
  hub.publish(frame(23, false));
  EXPECT_EQ(pipeline.keyframe_requests, base + 4) << "once";
}

TEST_F(ViewerConnectionTest, ViewOnlyKeyFrameRequestsAreBucketedToo) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(true), clocks());
  c.start(1);
  hub.publish(frame(1, true));
  const int base = pipeline.keyframe_requests;
  for (int i = 0; i < 10; ++i) {
    clock += 400ms;
    c.receive_text(R"({"type":"keyframe"})");
    hub.publish(frame(10 + i, true));
  }
  // 4 s: the burst of 3 and two refills.
  EXPECT_LE(pipeline.keyframe_requests, base + 5);
  EXPECT_GE(pipeline.keyframe_requests, base + 3);
}

TEST_F(ViewerConnectionTest, AViewOnlyViewerDoesNotSetTheEncoderTarget) {
  FakeTransport tf, tv;
  ViewerConnection full(tf, services(), ViewerGrant::from_view_only(false), clocks());
  ViewerConnection view(tv, services(), ViewerGrant::from_view_only(true), clocks());
  full.start(1);
  view.start(2);
  hub.publish(frame(1, true));
  flush(full, tf);
  flush(view, tv);
  clock += 20ms;
  full.receive_text(R"({"type":"ack","id":1,"hold_ms":1,"decode_ms":1})");
  view.receive_text(R"({"type":"ack","id":1,"hold_ms":1,"decode_ms":1})");
  EXPECT_GT(full.target_kbps(), 0);
  EXPECT_EQ(view.target_kbps(), 0) << "a view-only viewer has no say in the shared bitrate";
}

TEST_F(ViewerConnectionTest, AViewerThatDoesNotReadIsClosedByBytes) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  // Nothing is written back: the transport stays busy with the hello.
  const std::string chunk(64 * 1024, 'x');
  for (int i = 0; i < 40 && !t.closed; ++i) c.send_control(chunk);
  ASSERT_TRUE(t.closed);
  EXPECT_EQ(*t.closed, CloseCode::kPolicy);
  EXPECT_TRUE(c.closed());
  EXPECT_EQ(hub.sinks(), 0u) << "it left the hub";
}

TEST_F(ViewerConnectionTest, OnlyTheLatestCursorAndClipboardWait) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);  // the hello is in flight
  for (int i = 0; i < 100; ++i) c.send_latest(json{{"type", "cursor"}, {"serial", i}}.dump(), input::ControlKind::kCursor);
  for (int i = 0; i < 100; ++i)
    c.send_latest(json{{"type", "clipboard"}, {"mime", "text/plain"}, {"text", std::to_string(i)}}.dump(),
                  input::ControlKind::kClipboard);
  EXPECT_FALSE(t.closed);
  flush(c, t);
  const auto cursors = t.of("cursor");
  ASSERT_EQ(cursors.size(), 1u);
  EXPECT_EQ(cursors[0]["serial"], 99);
  const auto clips = t.of("clipboard");
  ASSERT_EQ(clips.size(), 1u);
  EXPECT_EQ(clips[0]["text"], "99");
}

TEST_F(ViewerConnectionTest, AThrowClosesThisViewerOnly) {
  FakeTransport ta, tb;
  ViewerConnection a(ta, services(), ViewerGrant::from_view_only(false), clocks());
  ViewerConnection b(tb, services(), ViewerGrant::from_view_only(false), clocks());
  a.start(1);
  b.start(2);
  hub.publish(frame(1, true));
  pipeline.throw_on_keyframe = true;
  clock += 1s;
  a.receive_text(R"({"type":"keyframe"})");
  ASSERT_TRUE(ta.closed);
  EXPECT_EQ(*ta.closed, CloseCode::kInternal);
  EXPECT_FALSE(tb.closed);
  EXPECT_EQ(hub.sinks(), 1u);
  pipeline.throw_on_keyframe = false;
  b.receive_text(R"({"type":"ping","t":1})");
  flush(b, tb);
  EXPECT_EQ(tb.of("pong").size(), 1u);
}

TEST_F(ViewerConnectionTest, BinaryMessagesAreCheckedAndBounded) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  const auto before = c.ignored();
  std::vector<uint8_t> junk(10, 0xff);
  c.receive_binary(junk);
  std::vector<uint8_t> big(ClientLimits::kMaxBinaryMessageBytes + 1, 0);
  big[0] = kKindMicrophone;
  c.receive_binary(big);
  c.receive_binary({});
  EXPECT_EQ(c.ignored(), before + 3);
  EXPECT_FALSE(t.closed);
}

TEST_F(ViewerConnectionTest, VideoIsSentAfterItsAnnouncement) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  flush(c, t);
  hub.publish(frame(1, true));
  flush(c, t);
  ASSERT_EQ(t.of("video").size(), 1u);
  EXPECT_EQ(t.of("video")[0]["width"], 64);
  EXPECT_EQ(t.binaries, 1);
}

TEST_F(ViewerConnectionTest, AViewerThatAskedForAKeyFrameGetsNoDeltasBeforeIt) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  flush(c, t);
  hub.publish(frame(1, true));
  flush(c, t);
  c.receive_text(R"({"type":"ack","id":1,"decode_ms":1,"hold_ms":1})");
  EXPECT_EQ(t.binaries, 1);
  c.receive_text(R"({"type":"keyframe","reason":"decoder error"})");
  hub.publish(frame(2, false));  // its decoder cannot use this
  flush(c, t);
  EXPECT_EQ(t.binaries, 1);
  hub.publish(frame(3, true));
  flush(c, t);
  EXPECT_EQ(t.binaries, 2);
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

// The "decoder" message: a viewer that says it decodes High 4:4:4 counts
// towards the hub's rule; a bad field leaves what it said before.
}  // namespace
}  // namespace voxl::stream
