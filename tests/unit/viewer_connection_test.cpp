// ViewerConnection over a recording fake transport: what a viewer's
// messages make voxl do, what is refused, and the limits on both
// directions. Times come from a clock the test moves.
#include "stream/viewer/viewer_connection.h"
#include "stream/viewer/resize_controller.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_input_injector.h"
#include "input/interaction.h"
#include "input/viewer_input.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using namespace std::chrono_literals;

struct FakeTransport : ViewerTransport {
  std::vector<std::string> texts;
  int binaries = 0;
  std::optional<CloseCode> closed;
  bool ticking = false;
  bool busy = false;

  void write_text(std::string_view t) override {
    EXPECT_FALSE(busy) << "one write at a time";
    texts.emplace_back(t);
    busy = true;
  }
  void write_binary(std::span<const uint8_t>, std::span<const uint8_t>) override {
    EXPECT_FALSE(busy) << "one write at a time";
    ++binaries;
    busy = true;
  }
  void close(CloseCode code, std::string_view) override { closed = code; }
  void set_ticking(bool on) override { ticking = on; }

  std::vector<json> of(const std::string& type) const {
    std::vector<json> r;
    for (const auto& t : texts) {
      const json m = json::parse(t);
      if (m["type"] == type) r.push_back(m);
    }
    return r;
  }
};

struct FakePipeline {
  int keyframe_requests = 0;
  std::vector<int> targets;
  bool throw_on_keyframe = false;
  std::optional<std::chrono::steady_clock::duration> armed;
  std::chrono::steady_clock::time_point* clock = nullptr;

  PipelineControls controls() {
    PipelineControls c;
    c.request_keyframe = [this](int) {
      if (throw_on_keyframe) throw std::runtime_error("encoder on fire");
      ++keyframe_requests;
    };
    c.set_target_kbps = [this](int rung, int k) {
      if (rung == 0) targets.push_back(k);
    };
    c.arm_key_timer = [this](std::chrono::steady_clock::duration d) { armed = d; };
    c.now = [this] { return *clock; };
    return c;
  }
};

struct FakeClipboard : input::Clipboard {
  std::vector<input::ClipboardContent> offered;
  void set_listener(Listener) override {}
  void set_lost_handler(std::function<void()>) override {}
  bool offer(input::ClipboardContent c, std::string&) override {
    offered.push_back(std::move(c));
    return true;
  }
};

encode::EncodedFramePtr frame(uint32_t id, bool key, size_t bytes = 100) {
  auto f = std::make_shared<encode::EncodedFrame>();
  f->id = id;
  f->key = key;
  f->codec = "avc1.42E028";
  f->size = {64, 48};
  f->data.assign(bytes, 0);
  return f;
}

class ViewerConnectionTest : public ::testing::Test {
 protected:
  std::chrono::steady_clock::time_point clock{std::chrono::hours(1)};
  FakePipeline pipeline;
  Hub hub{[this] {
    pipeline.clock = &clock;
    return pipeline.controls();
  }()};
  testing::FakeInputInjector inj;
  FakeClipboard clip;
  input::Interaction interaction{&inj, &clip, nullptr, {}, spdlog::default_logger()};

  ViewerServices services() {
    ViewerServices s{.hub = &hub, .log = spdlog::default_logger()};
    s.interaction = &interaction;
    s.bitrate = {2000, 30000};
    return s;
  }
  ViewerClocks clocks() {
    return {[this] { return clock; }, [] { return uint64_t(42); }};
  }
  // Completes writes until none is left to do.
  static void flush(ViewerConnection& c, FakeTransport& t) {
    while (t.busy) {
      t.busy = false;
      c.on_written();
    }
  }
};

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
TEST_F(ViewerConnectionTest, DecoderMessageSetsWhatTheViewerTakes) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(1);
  EXPECT_FALSE(c.takes_full_chroma());  // says nothing: 4:2:0 only
  EXPECT_FALSE(hub.full_chroma());
  c.receive_text(R"({"type":"decoder","avc444":true})");
  EXPECT_TRUE(c.takes_full_chroma());
  EXPECT_TRUE(hub.full_chroma());
  const uint64_t ignored = c.ignored();
  c.receive_text(R"({"type":"decoder","avc444":"yes"})");
  c.receive_text(R"({"type":"decoder","avc444":1})");
  EXPECT_EQ(c.ignored(), ignored + 2);
  EXPECT_TRUE(c.takes_full_chroma());
  c.receive_text(R"({"type":"decoder"})");  // no field: nothing beyond 4:2:0
  EXPECT_FALSE(c.takes_full_chroma());
  EXPECT_FALSE(hub.full_chroma());
  c.receive_text(R"({"type":"decoder","avc444":true,"av1":true})");  // unknown fields are skipped
  EXPECT_TRUE(hub.full_chroma());
  // A second viewer that says nothing withdraws it for everyone.
  FakeTransport t2;
  ViewerConnection c2(t2, services(), ViewerGrant::from_view_only(true), clocks());
  c2.start(2);
  EXPECT_FALSE(hub.full_chroma());
  c2.receive_text(R"({"type":"decoder","avc444":true})");  // view-only viewers may say it too
  EXPECT_TRUE(hub.full_chroma());
  c.on_transport_closed();
  EXPECT_TRUE(hub.full_chroma());
  c2.on_transport_closed();
  EXPECT_FALSE(hub.full_chroma());  // no sink: nothing to allow
  EXPECT_FALSE(t.closed);
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

// The resize message reaches the controller from full viewers only; input
// makes a viewer the holder; bad sizes are ignored.
TEST_F(ViewerConnectionTest, ResizeRequestsGoToTheControllerFromFullViewers) {
  std::vector<Size> resized;
  ResizeHooks hooks;
  hooks.resize = [&resized](Size s, std::string&) {
    resized.push_back(s);
    return true;
  };
  hooks.arm_timer = [](ResizeHooks::Time) {};
  hooks.now = [this] { return clock; };
  ResizeController resize({.current = {1920, 1080}, .max = {3840, 2160}}, hooks, spdlog::default_logger());
  auto s = services();
  s.resize = &resize;

  FakeTransport watcher_t;
  ViewerConnection watcher(watcher_t, s, ViewerGrant::from_view_only(true), clocks());
  watcher.start(1);
  FakeTransport full_t;
  ViewerConnection full(full_t, s, ViewerGrant::from_view_only(false), clocks());
  full.start(2);

  watcher.receive_text(R"({"type":"resize","width":800,"height":600})");
  watcher.receive_text(R"({"type":"resize","width":640,"height":480})");
  flush(watcher, watcher_t);
  ASSERT_EQ(watcher_t.of("refused").size(), 1u) << "refused once";
  EXPECT_EQ(watcher_t.of("refused")[0]["what"], "resize");
  EXPECT_TRUE(resized.empty());

  for (const char* bad : {R"({"type":"resize","width":0,"height":600})", R"({"type":"resize","width":800})",
                          R"({"type":"resize","width":800.5,"height":600})",
                          R"({"type":"resize","width":16385,"height":600})",
                          R"({"type":"resize","width":"800","height":600})"})
    full.receive_text(bad);
  EXPECT_TRUE(resized.empty());
  EXPECT_GE(full.ignored(), 5u);

  full.receive_text(R"({"type":"resize","width":1283,"height":721})");
  flush(full, full_t);
  EXPECT_EQ(resized, (std::vector<Size>{{1280, 720}}));
  ASSERT_FALSE(full_t.of("resize").empty());
  EXPECT_EQ(full_t.of("resize").back()["holder"], true);
  EXPECT_EQ(watcher_t.of("resize").back()["holder"], false);
  EXPECT_FALSE(full_t.closed);
  EXPECT_FALSE(watcher_t.closed);
  full.on_transport_closed();
  EXPECT_FALSE(resize.holder()) << "a viewer that leaves lets go of the size";
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

TEST_F(ViewerConnectionTest, SettingsAreAppliedAndAnswered) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(false), clocks());
  c.start(7);
  flush(c, t);
  const json hello = t.of("hello").at(0);
  EXPECT_EQ(hello["id"], 7);
  EXPECT_EQ(hello["files"], false);
  ASSERT_EQ(t.of("settings").size(), 1u) << "answered once after interaction";
  EXPECT_EQ(t.of("settings")[0], (json{{"type", "settings"},
                                       {"max_fps", 0},
                                       {"max_kbps", 0},
                                       {"name", ""},
                                       {"motion", nullptr},
                                       {"server_motion", "auto"},
                                       {"server_max_fps", 60},
                                       {"server_max_kbps", 30000},
                                       {"server_min_kbps", 2000}}));
  c.receive_text(R"({"type":"settings","max_fps":24,"max_kbps":3000,"name":"Ada"})");
  flush(c, t);
  ASSERT_EQ(t.of("settings").size(), 2u);
  EXPECT_EQ(t.of("settings")[1]["max_fps"], 24);
  EXPECT_EQ(t.of("settings")[1]["max_kbps"], 3000);
  EXPECT_EQ(t.of("settings")[1]["name"], "Ada");
  EXPECT_EQ(t.of("viewers").back()["viewers"][0]["name"], "Ada");
  EXPECT_EQ(c.max_fps(), 24);
  EXPECT_EQ(hub.max_fps(), 24) << "the only viewer's cap is the stream's";
  EXPECT_EQ(c.target_kbps(), 3000) << "a full viewer's cap is its link limit, measured or not";
  EXPECT_EQ(hub.target_kbps(), 3000);
  // A bad field changes nothing, and the viewer is told what holds.
  const uint64_t ignored = c.ignored();
  c.receive_text(R"({"type":"settings","max_fps":30,"max_kbps":50})");
  flush(c, t);
  EXPECT_EQ(c.ignored(), ignored + 1);
  ASSERT_EQ(t.of("settings").size(), 3u);
  EXPECT_EQ(t.of("settings")[2]["max_fps"], 24);
  EXPECT_EQ(c.settings().max_kbps, 3000);
  // A cap below --min-kbps applies as the floor, and is answered so.
  c.receive_text(R"({"type":"settings","max_kbps":500})");
  flush(c, t);
  ASSERT_EQ(t.of("settings").size(), 4u);
  EXPECT_EQ(t.of("settings")[3]["max_kbps"], 2000);
  EXPECT_EQ(c.settings().max_kbps, 2000);
  EXPECT_EQ(c.target_kbps(), 2000);
  EXPECT_EQ(hub.target_kbps(), 2000);
  c.receive_text(R"({"type":"settings","max_fps":0,"max_kbps":0})");
  flush(c, t);
  EXPECT_EQ(hub.max_fps(), 60);
  EXPECT_EQ(c.target_kbps(), 0);
  EXPECT_EQ(c.settings().name, "Ada") << "a field left out stays";
}

TEST_F(ViewerConnectionTest, AViewOnlyViewersCapsOnlyCountTowardsTheStreamsCeiling) {
  FakeTransport t;
  ViewerConnection c(t, services(), ViewerGrant::from_view_only(true), clocks());
  c.start(1);
  c.receive_text(R"({"type":"settings","max_fps":10,"max_kbps":100000})");
  flush(c, t);
  EXPECT_EQ(c.target_kbps(), 0) << "no say in the encoder's bitrate";
  EXPECT_EQ(t.of("settings").back()["max_kbps"], 0) << "its bitrate cap is not applied";
  EXPECT_EQ(t.of("settings").back()["max_fps"], 10);
  EXPECT_EQ(hub.max_fps(), 10) << "a lone viewer's cap is the stream's ceiling";
  // Nothing is thinned: every frame the stream makes is sent at once.
  for (uint32_t i = 1; i <= 5; ++i) {
    c.on_video(frame(i, i == 1));
    flush(c, t);
    clock += 40ms;  // 25 fps, past its cap of 10
    c.receive_text(json{{"type", "ack"}, {"id", i}, {"decode_ms", 1}}.dump());
    flush(c, t);
    EXPECT_TRUE(c.ready()) << "frame " << i;
  }
  EXPECT_EQ(t.binaries, 5);
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

TEST_F(ViewerConnectionTest, AViewerRenamingOverAndOverCannotFillAnothersQueue) {
  FakeTransport slow_t, busy_t;
  ViewerConnection slow(slow_t, services(), ViewerGrant::from_view_only(true), clocks());
  slow.start(1);  // never written: everything after its hello waits
  ViewerConnection busy(busy_t, services(), ViewerGrant::from_view_only(false), clocks());
  busy.start(2);
  for (int i = 0; i < 1000; ++i) {
    busy.receive_text(json{{"type", "settings"}, {"name", "n" + std::to_string(i)}}.dump());
    flush(busy, busy_t);
  }
  EXPECT_FALSE(slow.closed()) << "closed for another viewer's renames";
  EXPECT_LT(slow.text_queue().size(), 10u) << "only the newest list waits";
  flush(slow, slow_t);
  EXPECT_EQ(slow_t.of("viewers").back()["viewers"][1]["name"], "n4") << "renames past the burst are ignored";
  EXPECT_EQ(busy.ignored(), 995u);
  EXPECT_EQ(busy_t.of("settings").back()["name"], "n4") << "the answer says the name that holds";
}

}  // namespace
}  // namespace voxl::stream
