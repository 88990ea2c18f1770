// Dynamic resolution on the real binary: a viewer's resize request changes
// a private Xvfb's size through RandR (voxl on someone else's display, as
// with Xorg's dummy driver), the stream follows with a key frame at the new
// size that decodes, a view-only viewer is refused, and voxl puts the size
// back and deletes its modes when it exits.
#include <gtest/gtest.h>

#include <xcb/randr.h>
#include <xcb/xcb.h>

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "http_client.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

constexpr auto kLimit = 60s;  // sanitizers on a loaded 2-core machine
constexpr Size kLargest{800, 600};

// The root window's size as the X server has it now.
Size root_size(xcb_connection_t* c, xcb_window_t root) {
  std::unique_ptr<xcb_get_geometry_reply_t, decltype(&free)> g(
      xcb_get_geometry_reply(c, xcb_get_geometry(c, root), nullptr), &free);
  return g ? Size{g->width, g->height} : Size{};
}

// Names of the RandR modes the server knows.
std::vector<std::string> mode_names(xcb_connection_t* c, xcb_window_t root) {
  std::vector<std::string> names;
  std::unique_ptr<xcb_randr_get_screen_resources_reply_t, decltype(&free)> r(
      xcb_randr_get_screen_resources_reply(c, xcb_randr_get_screen_resources(c, root), nullptr), &free);
  if (!r) return names;
  const uint8_t* text = xcb_randr_get_screen_resources_names(r.get());
  const xcb_randr_mode_info_t* modes = xcb_randr_get_screen_resources_modes(r.get());
  for (int i = 0; i < xcb_randr_get_screen_resources_modes_length(r.get()); ++i) {
    names.emplace_back(reinterpret_cast<const char*>(text), modes[i].name_len);
    text += modes[i].name_len;
  }
  return names;
}

class ResizeTest : public VoxlFixture {
 protected:
  void SetUp() override {
    start_display(0x203040, kLargest);
    original_modes_ = mode_names(painter_->conn(), painter_->root());
  }
  void start(std::vector<std::string> args = {}) {
    args.insert(args.begin(), {"--enable-resize", "--log-level=debug"});
    start_voxl(args);
  }
  Size desktop() { return root_size(painter_->conn(), painter_->root()); }

  // Waits until the X server's root has `s`, polling the server through
  // the viewer's reads (each read waits for a message, not a clock).
  bool wait_for_desktop(StreamClient& viewer, Size s) {
    return viewer.wait_until([&] { return desktop() == s; }, kLimit) || desktop() == s;
  }
  // The newest "resize" message the viewer was sent.
  static nlohmann::json last_resize(const StreamClient& viewer) {
    for (auto it = viewer.texts().rbegin(); it != viewer.texts().rend(); ++it)
      if ((*it)["type"] == "resize") return *it;
    return nullptr;
  }

  std::vector<std::string> original_modes_;
};

TEST_F(ResizeTest, AViewersRequestResizesTheDesktopAndTheStreamFollows) {
  start();
  StreamClient viewer(client_options());
  ASSERT_TRUE(viewer.wait_until([&] { return viewer.picture() && viewer.picture()->width == kLargest.width; }, kLimit))
      << viewer.status();
  const nlohmann::json state = last_resize(viewer);
  ASSERT_TRUE(state.is_object()) << "no resize message after hello";
  EXPECT_EQ(state["enabled"], true);
  EXPECT_EQ(state["holder"], false);
  EXPECT_EQ(state["max_width"], kLargest.width);
  EXPECT_EQ(state["max_height"], kLargest.height);

  // An odd size: the server rounds it (width to 8, height to even).
  viewer.send_text(R"({"type":"resize","width":645,"height":483})");
  const Size want{640, 482};
  ASSERT_TRUE(wait_for_desktop(viewer, want)) << "the X server's size is " << desktop().width << "x"
                                               << desktop().height;
  // The message that says so may come a moment after the X server's size.
  EXPECT_TRUE(viewer.wait_until([&] { return last_resize(viewer)["holder"] == true; }, kLimit));

  // What the new area shows must reach the viewer at the new size.
  const size_t frames_before = viewer.frames().size();
  fill(Rect::from_size(want), 0xc03020);
  painter_->sync();
  ASSERT_TRUE(viewer.wait_for_colour(want.width - 1, want.height - 1, 0xc03020, kLimit)) << viewer.status();
  ASSERT_EQ(viewer.picture()->width, want.width);
  ASSERT_EQ(viewer.picture()->height, want.height);
  bool key_at_new_size = false;
  for (size_t i = 0; i < viewer.frames().size(); ++i) {
    const auto& h = viewer.frames()[i];
    if (h.width == want.width && h.height == want.height) {
      key_at_new_size = h.key;
      break;
    }
  }
  EXPECT_TRUE(key_at_new_size) << "the first frame at the new size is not a key frame";
  EXPECT_GT(viewer.frames().size(), frames_before);
  bool video_message = false;
  for (const auto& t : viewer.texts())
    if (t["type"] == "video" && t["width"] == want.width && t["height"] == want.height) video_message = true;
  EXPECT_TRUE(video_message) << "no video message with the new size";
  EXPECT_EQ(viewer.decode_errors(), 0) << viewer.status();

  // Growing back to the largest size works the same way.
  viewer.send_text(R"({"type":"resize","width":4000,"height":4000})");
  ASSERT_TRUE(wait_for_desktop(viewer, kLargest));
  ASSERT_TRUE(viewer.wait_until([&] { return viewer.picture() && viewer.picture()->width == kLargest.width; }, kLimit));
  EXPECT_EQ(viewer.decode_errors(), 0) << viewer.status();
}

TEST_F(ResizeTest, TheViewerThatLastUsedInputHoldsTheSize) {
  start();
  ClientOptions o = client_options();
  StreamClient full(o);
  full.send_text(R"({"type":"resize","width":480,"height":360})");
  ASSERT_TRUE(wait_for_desktop(full, {480, 360}));
  // The full viewer above holds the size; a second full viewer that
  // has not used input does not take it.
  StreamClient second(o);
  second.send_text(R"({"type":"resize","width":640,"height":480})");
  ASSERT_TRUE(second.wait_until([&] { return last_resize(second).is_object(); }, kLimit));
  EXPECT_EQ(last_resize(second)["holder"], false);
  // Input makes the second viewer the holder, and its size is applied.
  // Passing over it is not using it; a click is.
  second.send_text(R"({"type":"move","x":10,"y":10})");
  second.send_text(R"({"type":"button","button":1,"down":true,"x":10,"y":10,"mods":0})");
  second.send_text(R"({"type":"button","button":1,"down":false,"x":10,"y":10,"mods":0})");
  ASSERT_TRUE(wait_for_desktop(second, {640, 480}));
  EXPECT_TRUE(second.wait_until([&] { return last_resize(second)["holder"] == true; }, kLimit));
  ASSERT_TRUE(full.wait_until([&] { return last_resize(full)["holder"] == false; }, kLimit));
}

TEST_F(ResizeTest, AViewOnlyViewerIsRefused) {
  start({"--enable-basic-auth", "--basic-auth-password=s3cret", "--basic-auth-viewonly-password=look"});
  ClientOptions o = client_options();
  o.authorization = basic_authorization("voxl", "look");
  StreamClient watcher(o);
  watcher.send_text(R"({"type":"resize","width":480,"height":360})");
  watcher.send_text(R"({"type":"move","x":1,"y":1})");
  watcher.send_text(R"({"type":"resize","width":480,"height":360})");
  // Whatever the server answers to those comes before the pong.
  watcher.send_text(R"({"type":"ping","t":7})");
  const auto ponged = [&] {
    for (const auto& t : watcher.texts())
      if (t["type"] == "pong") return true;
    return false;
  };
  ASSERT_TRUE(watcher.wait_until(ponged, kLimit)) << watcher.status();
  EXPECT_EQ(last_resize(watcher)["holder"], false);
  // A full viewer's request after it is still applied: the refusal did not
  // touch the desktop.
  o.authorization = basic_authorization("voxl", "s3cret");
  StreamClient full(o);
  full.send_text(R"({"type":"resize","width":640,"height":360})");
  ASSERT_TRUE(wait_for_desktop(full, {640, 360}));
  int refusals = 0;
  for (const auto& t : watcher.texts()) refusals += t["type"] == "refused" && t["what"] == "resize";
  EXPECT_EQ(refusals, 1) << "refused once, not once per request";
}

class ResizeExitTest : public ResizeTest, public ::testing::WithParamInterface<int> {};

TEST_P(ResizeExitTest, TheSizeAndTheModesArePutBack) {
  start();
  {
    StreamClient viewer(client_options());
    viewer.send_text(R"({"type":"resize","width":512,"height":384})");
    ASSERT_TRUE(wait_for_desktop(viewer, {512, 384}));
    bool made = false;
    for (const auto& n : mode_names(painter_->conn(), painter_->root())) made = made || n.find("512x384") != std::string::npos;
    EXPECT_TRUE(made) << "no mode of the new size";
  }
  EXPECT_EQ(voxl_->stop(std::chrono::seconds(30), GetParam()), 0);
  EXPECT_EQ(desktop(), kLargest);
  EXPECT_EQ(mode_names(painter_->conn(), painter_->root()), original_modes_) << "voxl left modes behind";
  voxl_.reset();
}

INSTANTIATE_TEST_SUITE_P(Signals, ResizeExitTest, ::testing::Values(SIGTERM, SIGINT, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return std::string(i.param == SIGTERM ? "SIGTERM" : i.param == SIGINT ? "SIGINT" : "SIGHUP");
                         });

}  // namespace
}  // namespace voxl::testing
