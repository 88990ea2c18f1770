// ViewerConnection over a recording fake transport, what a viewer sets for
// itself: what its decoder takes, its resize requests, its settings and
// renames.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "viewer_connection_fixture.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using namespace std::chrono_literals;
using viewer_testing::FakeTransport;
using viewer_testing::frame;
using viewer_testing::ViewerConnectionTest;

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
