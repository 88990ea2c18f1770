// voxl on Wayland, end to end: the real binary starts its own headless sway
// (--wayland, as nobody since the tests run as root) with a Wayland program
// in it, says so at start, shows the program's exact pixels in /screenshot,
// sends /input's clicks and typing into it, answers /wait when the screen
// changes, costs no CPU once still, and leaves nothing behind when it stops;
// with --capture-region, only that part of the output, clicked in place; a
// window, or a region off the output, refused with the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <regex>

#include <nlohmann/json.hpp>

#include "command_output.h"
#include "http_client.h"
#include "idle_checks.h"
#include "media_probe.h"
#include "screenshot_checks.h"
#include "voxl_process.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
constexpr auto kLimit = std::chrono::milliseconds(60s);

HttpAnswer post_input(uint16_t port, const std::string& body) {
  return http_request(port, {"POST", "/input", {{"content-type", "application/json"}}}, body, kLimit);
}

TEST(WaylandDesktopTest, VoxlsOwnCompositorStreamsAProgramAndTakesInput) {
  // The debug log says when /wait is waiting.
  const std::string probe = std::string(VOXL_WAYLAND_PROBE) + " 336699 react";
  VoxlProcess voxl("", {"--wayland=320x240", "--log-level=debug", "--exec", probe}, kLimit);
  EXPECT_TRUE(voxl.wait_for_log("desktop: Wayland (voxl's own headless compositor (--wayland))", 1s)) << voxl.log();
  EXPECT_TRUE(voxl.wait_for_log("since sway refuses root", 1s) || geteuid() != 0) << voxl.log();
  std::smatch m;
  const std::string log = voxl.log();
  ASSERT_TRUE(std::regex_search(log, m, std::regex(" on (/tmp/voxl-wayland-[^/]+)/wayland-"))) << log;
  const std::string runtime_dir = m[1];

  // The pointer to a corner, out of the way.
  EXPECT_EQ(post_input(voxl.port(), R"({"type":"move","x":0,"y":0})").status, 200);
  EXPECT_EQ(screen_becomes(voxl.port(), 0x336699, {0, 0, 48, 48}), "");
  const HttpAnswer shot = http_request(voxl.port(), {"GET", "/screenshot", {}}, kLimit);
  EXPECT_EQ(decode_png(shot.body).size, (Size{320, 240}));

  // A click reaches the program (it paints itself green), and /wait, asked
  // before it, returns with the change.
  const uint64_t seq = std::stoull(shot.header("x-voxl-seq"));
  auto waited = std::async(std::launch::async, [&] {
    return http_request(voxl.port(), {"GET", "/wait?change&since=" + std::to_string(seq) + "&timeout=60", {}},
                        kLimit);
  });
  ASSERT_TRUE(voxl.wait_for_log("waiting)", 30s) || waited.wait_for(0s) == std::future_status::ready);
  const HttpAnswer click = post_input(voxl.port(), R"({"type":"click","x":100,"y":50})");
  EXPECT_EQ(click.status, 200) << click.body;
  const Rect near_click{84, 34, 64, 64};
  EXPECT_EQ(screen_becomes(voxl.port(), 0x00ff00, near_click), "");
  const HttpAnswer w = waited.get();
  EXPECT_EQ(w.status, 200) << w.body;
  EXPECT_TRUE(nlohmann::json::parse(w.body, nullptr, false).value("changed", false)) << w.body;

  // Typed text, a character outside any one layout among it: the last
  // character typed is the colour it paints.
  const HttpAnswer typed = post_input(voxl.port(), R"({"type":"type","text":"Zé€ж"})");
  EXPECT_EQ(typed.status, 200) << typed.body;
  EXPECT_EQ(screen_becomes(voxl.port(), 0x000436, near_click), "");  // ж is U+0436

  // Still, it costs nothing, also with a change no one has asked about yet:
  // the capture and /wait's watcher wait on the compositor.
  HttpAnswer key;
  const auto press = [&] { key = post_input(voxl.port(), R"({"type":"type","text":"a"})"); };
  EXPECT_EQ(costs_nothing_while_still(voxl.port(), voxl.pid(), press), "");
  EXPECT_EQ(key.status, 200) << key.body;

  EXPECT_EQ(voxl.stop(), 0) << voxl.log();
  EXPECT_FALSE(std::filesystem::exists(runtime_dir)) << runtime_dir;
}

TEST(WaylandDesktopTest, ARegionOfTheOutputIsStreamedAndClickedInPlace) {
  // The probe's stdout (what input reached it) into voxl's log.
  const std::string probe = std::string(VOXL_WAYLAND_PROBE) + " 336699 react 1>&2";
  VoxlProcess voxl("", {"--wayland=320x240", "--capture-region=100,50,120,100", "--exec", probe}, kLimit);
  // The pointer (sway draws it into the picture) to the region's last pixel,
  // where the check below looks past it.
  EXPECT_EQ(post_input(voxl.port(), R"({"type":"move","x":119,"y":99})").status, 200);
  EXPECT_EQ(screen_becomes(voxl.port(), 0x336699, {100, 80, 20, 20}, Size{120, 100}), "") << voxl.log();
  // A click at the region's (10, 20) lands at the output's (110, 70).
  const HttpAnswer click = post_input(voxl.port(), R"({"type":"click","x":10,"y":20})");
  EXPECT_EQ(click.status, 200) << click.body;
  EXPECT_TRUE(voxl.wait_for_log("button 272 110,70", 30s)) << voxl.log();
  EXPECT_EQ(voxl.stop(), 0) << voxl.log();
}

TEST(WaylandDesktopTest, AWindowOrARegionOffTheOutputIsRefusedWithTheReason) {
  const std::string voxl = "'" VOXL_BINARY "' --wayland=320x240 --port=0 --addr=127.0.0.1 ";
  const auto [window, window_code] = run_command(voxl + "--capture-window=0x400001 2>&1");
  EXPECT_NE(window_code, 0);
  EXPECT_NE(window.find("--capture-window is X11's"), std::string::npos) << window;
  const auto [region, region_code] = run_command(voxl + "--capture-region=300,200,100,100 2>&1");
  EXPECT_NE(region_code, 0);
  EXPECT_NE(region.find("capture region 100x100+300+200 does not lie on the 320x240 Wayland output"),
            std::string::npos)
      << region;
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
