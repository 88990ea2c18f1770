// Input under --capture-window on the real binary and a private Xvfb: the
// captured window does not sit at the screen's 0,0, and a viewer's clicks
// and /input's land on the window's own pixels, positions beyond the
// picture stay on the window, and after the window moves (its pixels
// unchanged) clicks follow it.
#include <gtest/gtest.h>

#include <xcb/xcb.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "endpoint_fixture.h"
#include "event_recorder.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// The recorder's window: white, away from the corner, odd in size (the
// stream codes 200x120 of its 201x121 pixels).
constexpr Rect kWindow{150, 100, 201, 121};
constexpr auto kLimit = std::chrono::seconds(60);

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

class WindowInputTest : public EndpointFixture {
 protected:
  void SetUp() override {
    start_display(kBackground);
    recorder_.emplace(display_->name(), kWindow);
    start_voxl({"--capture-window=" + hex(recorder_->window())});
    client_.emplace(client_options());
    ASSERT_TRUE(client_->wait_until([&] { return client_->picture().has_value(); }, kLimit)) << client_->status();
    const auto& p = *client_->picture();
    ASSERT_EQ(p.width, 200);
    ASSERT_EQ(p.height, 120);
    // The picture is the window, not the screen's corner.
    ASSERT_TRUE(client_->wait_for_colour(10, 20, 0xffffff, kLimit));
  }

  // Reads the stream (which sends what the viewer queued) and the
  // recorder's events until `done` or the limit.
  bool pump_until(const std::function<bool()>& done) {
    const auto end = Clock::now() + kLimit;
    while (Clock::now() < end) {
      client_->read_one(std::chrono::milliseconds(20));
      recorder_->poll();
      if (done()) return true;
    }
    return false;
  }

  size_t releases() const {
    const auto& ev = recorder_->events();
    return size_t(std::count_if(ev.begin(), ev.end(),
                                [](const InputEvent& e) { return e.kind == InputEvent::Kind::kButtonRelease; }));
  }

  // A viewer's left click at picture (x, y); the root position it landed on.
  std::optional<std::pair<int, int>> viewer_click(int x, int y) {
    recorder_->clear();
    client_->send_text(json{{"type", "button"}, {"button", 1}, {"down", true}, {"x", x}, {"y", y}}.dump());
    client_->send_text(json{{"type", "button"}, {"button", 1}, {"down", false}, {"x", x}, {"y", y}}.dump());
    if (!pump_until([&] { return releases() >= 1; })) return std::nullopt;
    const InputEvent& e = recorder_->events().front();
    return std::pair{e.root_x, e.root_y};
  }

  std::optional<std::pair<int, int>> input_click(int x, int y) {
    recorder_->clear();
    const HttpAnswer a = call("POST", "/input", json{{"type", "click"}, {"x", x}, {"y", y}}.dump());
    EXPECT_EQ(a.status, 200) << a.body;
    if (a.status != 200) return std::nullopt;
    if (!pump_until([&] { return releases() >= 1; })) return std::nullopt;
    const InputEvent& e = recorder_->events().front();
    return std::pair{e.root_x, e.root_y};
  }

  // Where the pointer is on the root window.
  std::pair<int, int> pointer() {
    xcb_connection_t* c = painter_->conn();
    xcb_query_pointer_reply_t* r = xcb_query_pointer_reply(c, xcb_query_pointer(c, painter_->root()), nullptr);
    std::pair<int, int> p{-1, -1};
    if (r) p = {r->root_x, r->root_y};
    free(r);
    return p;
  }

  std::optional<EventRecorder> recorder_;
  std::optional<StreamClient> client_;
};

using Pos = std::optional<std::pair<int, int>>;

TEST_F(WindowInputTest, ClicksLandOnTheWindowsPixels) {
  EXPECT_EQ(viewer_click(10, 20), (Pos{{kWindow.x + 10, kWindow.y + 20}}));
  EXPECT_EQ(input_click(30, 40), (Pos{{kWindow.x + 30, kWindow.y + 40}}));
  // The window's last column and row, which the coded picture leaves out,
  // are still the window's.
  EXPECT_EQ(input_click(200, 120), (Pos{{kWindow.x + 200, kWindow.y + 120}}));
}

TEST_F(WindowInputTest, PositionsBeyondThePictureStayOnTheWindow) {
  // A viewer dragging past the canvas: clamped to the captured area.
  EXPECT_EQ(viewer_click(5000, -30), (Pos{{kWindow.right() - 1, kWindow.y}}));
  EXPECT_EQ(viewer_click(-7, 100000), (Pos{{kWindow.x, kWindow.bottom() - 1}}));
  // /input refuses them, naming the window's size, and plays nothing.
  recorder_->clear();
  const HttpAnswer a = call("POST", "/input", R"({"type":"click","x":201,"y":5})");
  expect_error(a, 400, "x");
  EXPECT_NE(a.body.find("201x121"), std::string::npos) << a.body;
  recorder_->poll();
  EXPECT_EQ(releases(), 0u);
}

TEST_F(WindowInputTest, ClicksFollowTheWindowWhenItMovesWithoutChanging) {
  constexpr Point kMoved{320, 260};
  painter_->move_window(recorder_->window(), kMoved);
  // Nothing in the window changes, yet the capturer tells where it went:
  // a viewer's pointer at picture 10,20 reaches the moved window's 10,20
  // once the frame that says so has reached the loop.
  const std::pair<int, int> want{kMoved.x + 10, kMoved.y + 20};
  ASSERT_TRUE(pump_until([&] {
    client_->send_text(R"({"type":"move","x":10,"y":20})");
    client_->read_one(std::chrono::milliseconds(20));
    return pointer() == want;
  })) << "the pointer stayed at " << pointer().first << "," << pointer().second;
  EXPECT_EQ(viewer_click(10, 20), (Pos{want}));
  EXPECT_EQ(input_click(30, 40), (Pos{{kMoved.x + 30, kMoved.y + 40}}));
  EXPECT_EQ(viewer_click(1000, 1000), (Pos{{kMoved.x + kWindow.width - 1, kMoved.y + kWindow.height - 1}}));
  EXPECT_EQ(client_->decode_errors(), 0);
}

TEST_F(WindowInputTest, WaitRegionsAreInTheWindowsCoordinates) {
  const auto seq = [&] {
    const HttpAnswer a = get("/wait?idle=0");
    EXPECT_EQ(a.status, 200) << a.body;
    return body_json(a).value("seq", uint64_t(0));
  };
  // Until the change monitor has seen what was just drawn.
  const auto seq_after = [&](uint64_t before) {
    const auto end = Clock::now() + kLimit;
    uint64_t now = seq();
    while (now <= before && Clock::now() < end) {
      client_->read_one(std::chrono::milliseconds(20));
      now = seq();
    }
    return now;
  };
  const auto changed_since = [&](const std::string& region, uint64_t since) {
    const HttpAnswer a = get("/wait?change&timeout=1000&since=" + std::to_string(since) + region);
    EXPECT_EQ(a.status, 200) << a.body;
    return body_json(a).value("changed", true);
  };
  const uint64_t s0 = seq();
  // The screen's corner (the picture's 0,0 would be there if the window's
  // position were ignored) and beside the window: neither is in the picture.
  fill({0, 0, 64, 64}, 0xff0000);
  fill({500, 400, 40, 40}, 0x00ff00);
  const uint64_t s1 = seq_after(s0);
  EXPECT_FALSE(changed_since("&region=0,0,32,32", s0));
  EXPECT_FALSE(changed_since("", s0));
  // The window's own corner.
  painter_->fill(recorder_->window(), {0, 0, 32, 32}, 0x0000ff);
  seq_after(s1);
  EXPECT_TRUE(changed_since("&region=0,0,32,32", s1));
  EXPECT_TRUE(changed_since("", s1));
  EXPECT_FALSE(changed_since("&region=100,60,32,32", s1));
}

}  // namespace
}  // namespace voxl::testing
