// The X server going away is not the end: voxl keeps serving, and once a
// server is back on the same display the video pipeline rebuilds its
// capturer and the viewers see the new screen (from a key frame), without
// reconnecting; input, the cursor and the clipboard follow the new server
// too, and /wait sees its changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "display_number_hold.h"
#include "event_recorder.h"
#include "http_client.h"
#include "voxl_fixture.h"
#include "xclip.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

constexpr uint32_t kBefore = 0x2040a0;
constexpr uint32_t kAfter = 0xc03020;

class DisplayRestartTest : public VoxlFixture {
 protected:
  static bool centre_is(StreamClient& c, uint32_t rgb) {
    const auto p = c.pixel(kScreen.width / 2, kScreen.height / 2);
    return p && near_colour(*p, rgb);
  }

  // The first X server, on a number no other test's server looks at.
  void start_first_display(uint32_t background) {
    platform::x11::VirtualDisplayOptions o;
    o.size = kScreen;
    o.number = unsearched_display_number();
    display_.emplace(o);
    painter_.emplace(display_->name());
    fill(Rect::from_size(kScreen), background);
  }

  // The X server dies under voxl. Until start_display_again() the display
  // number stays taken (DisplayNumberHold).
  void stop_display() {
    number_ = display_->number();
    painter_.reset();
    display_.reset();
    hold_.hold(number_);
  }

  // Another one on the same display, painted `background`.
  void start_display_again(uint32_t background) {
    hold_.release();
    platform::x11::VirtualDisplayOptions o;
    o.size = kScreen;
    o.number = number_;
    display_.emplace(o);
    painter_.emplace(display_->name());
    fill(Rect::from_size(kScreen), background);
  }

  HttpAnswer click(int x, int y) {
    const std::string body = R"({"actions":[{"type":"click","x":)" + std::to_string(x) + R"(,"y":)" +
                             std::to_string(y) + "}]}";
    return http_request(voxl_->port(), {"POST", "/input", {}}, body, std::chrono::seconds(60));
  }

  HttpAnswer get(const std::string& target) {
    return http_request(voxl_->port(), {"GET", target, {}}, std::chrono::seconds(60));
  }

  int number_ = 0;
  DisplayNumberHold hold_;  // see stop_display()
};

TEST_F(DisplayRestartTest, CaptureComesBackWhenTheServerDoes) {
  start_first_display(kBefore);
  start_voxl();
  StreamClient client(client_options());
  ASSERT_TRUE(client.wait_until([&] { return centre_is(client, kBefore); })) << client.status();

  EXPECT_EQ(http_request(voxl_->port(), {"GET", "/readyz", {}}).status, 200);
  stop_display();
  ASSERT_TRUE(voxl_->wait_for_log("video capture lost", std::chrono::seconds(60))) << voxl_->log();
  // Alive but not ready while there is no display to capture.
  const HttpAnswer down = http_request(voxl_->port(), {"GET", "/readyz", {}});
  EXPECT_EQ(down.status, 503) << down.body;
  EXPECT_NE(down.body.find("video capture lost"), std::string::npos) << down.body;
  EXPECT_EQ(http_request(voxl_->port(), {"GET", "/healthz", {}}).status, 200);
  start_display_again(kAfter);

  ASSERT_TRUE(voxl_->wait_for_log("video capture is back", std::chrono::seconds(60))) << voxl_->log();
  EXPECT_EQ(http_request(voxl_->port(), {"GET", "/readyz", {}}).status, 200);
  const size_t keys_before = std::count_if(client.frames().begin(), client.frames().end(),
                                           [](const stream::VideoHeader& h) { return h.key; });
  EXPECT_TRUE(client.wait_until([&] { return centre_is(client, kAfter); }, std::chrono::seconds(60)))
      << client.status();
  const size_t keys_after = std::count_if(client.frames().begin(), client.frames().end(),
                                          [](const stream::VideoHeader& h) { return h.key; });
  EXPECT_GT(keys_after, keys_before) << "the new screen should start with a key frame";
}

TEST_F(DisplayRestartTest, InputReachesTheNewServer) {
  constexpr Rect kTarget{40, 30, 200, 150};
  start_first_display(kBefore);
  start_voxl();
  {
    EventRecorder before(display_->name(), kTarget);
    ASSERT_EQ(click(60, 50).status, 200);
    ASSERT_TRUE(before.wait_until([](const auto& ev) { return ev.size() >= 2; })) << voxl_->log();
  }
  stop_display();
  start_display_again(kAfter);
  EventRecorder after(display_->name(), kTarget);
  // The first click after the restart is the one that finds the old
  // connection dead: it must still arrive.
  const HttpAnswer a = click(70, 80);
  ASSERT_EQ(a.status, 200) << a.body << "\n" << voxl_->log();
  ASSERT_TRUE(after.wait_until([](const auto& ev) { return ev.size() >= 2; })) << voxl_->log();
  const auto& ev = after.events();
  EXPECT_TRUE(ev[0].press()) << ev[0].describe();
  EXPECT_EQ(ev[0].button, 1) << ev[0].describe();
  EXPECT_EQ(ev[0].root_x, 70) << ev[0].describe();
  EXPECT_EQ(ev[0].root_y, 80) << ev[0].describe();
  EXPECT_TRUE(voxl_->wait_for_log("input is back", std::chrono::seconds(60))) << voxl_->log();
}

TEST_F(DisplayRestartTest, WaitSeesChangesOnTheNewServer) {
  start_first_display(kBefore);
  start_voxl();
  stop_display();
  ASSERT_TRUE(voxl_->wait_for_log("the damage watcher lost the display", std::chrono::seconds(60))) << voxl_->log();
  start_display_again(kAfter);
  ASSERT_TRUE(voxl_->wait_for_log("the damage watcher is back", std::chrono::seconds(60))) << voxl_->log();
  const HttpAnswer now = get("/wait?idle=0");
  ASSERT_EQ(now.status, 200) << now.body;
  const auto seq = nlohmann::json::parse(now.body, nullptr, false).value("seq", uint64_t(0));
  EXPECT_GT(seq, 0u) << now.body;
  fill(Rect{10, 10, 50, 50}, 0x30c040);
  const HttpAnswer changed = get("/wait?change&timeout=30000&since=" + std::to_string(seq));
  ASSERT_EQ(changed.status, 200) << changed.body;
  const auto j = nlohmann::json::parse(changed.body, nullptr, false);
  EXPECT_EQ(j.value("changed", false), true) << changed.body << "\n" << voxl_->log();
  EXPECT_GT(j.value("seq", uint64_t(0)), seq) << changed.body;
}

TEST_F(DisplayRestartTest, CursorAndClipboardFollowTheNewServer) {
  start_first_display(kBefore);
  start_voxl();
  StreamClient client(client_options());
  const auto of_type = [&](const std::string& type) {
    std::vector<nlohmann::json> r;
    for (const auto& m : client.texts())
      if (m.value("type", "") == type) r.push_back(m);
    return r;
  };
  ASSERT_TRUE(client.wait_until([&] { return !of_type("cursor").empty(); })) << client.status();
  const uint64_t old_serial = of_type("cursor").back().value("serial", uint64_t(0));

  stop_display();
  ASSERT_TRUE(voxl_->wait_for_log("cursor shapes: lost the desktop", std::chrono::seconds(60))) << voxl_->log();
  ASSERT_TRUE(voxl_->wait_for_log("clipboard: lost the desktop", std::chrono::seconds(60))) << voxl_->log();
  const size_t cursors_before = of_type("cursor").size();
  start_display_again(kAfter);
  ASSERT_TRUE(voxl_->wait_for_log("cursor shapes: back", std::chrono::seconds(60))) << voxl_->log();
  ASSERT_TRUE(voxl_->wait_for_log("clipboard: back", std::chrono::seconds(60))) << voxl_->log();

  // The new server's pointer, under a serial the old one never used.
  ASSERT_TRUE(client.wait_until([&] { return of_type("cursor").size() > cursors_before; })) << client.status();
  EXPECT_NE(of_type("cursor").back().value("serial", uint64_t(0)), old_serial);

  // What an application on the new server copies reaches the viewer...
  auto owner = xclip_owner(display_->name(), "copied after the restart");
  EXPECT_TRUE(client.wait_until([&] {
    const auto c = of_type("clipboard");
    return !c.empty() && c.back().value("text", "") == "copied after the restart";
  })) << client.status() << "\n" << voxl_->log();
  // ... and what the viewer pastes reaches the new server's applications.
  client.send_text(R"({"type":"clipboard","mime":"text/plain","text":"pasted after the restart"})");
  // xclip gives up the clipboard, and exits, once voxl has taken it.
  ASSERT_TRUE(client.wait_until([&] { return owner->exited(); }, std::chrono::seconds(60))) << voxl_->log();
  const XclipOutput pasted = run_xclip(display_->name(), {"-o"});
  EXPECT_TRUE(pasted.exited);
  EXPECT_EQ(pasted.out, "pasted after the restart");
}

}  // namespace
}  // namespace voxl::testing
