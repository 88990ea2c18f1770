// voxl through the desktop portal, end to end: the real binary with
// --backend portal on a private bus with the tests' own portal, PipeWire and
// WirePlumber (tests/portal/portal_rig.h). It says so at start, keeps the
// portal's restore token, shows the desktop's exact pixels in /screenshot,
// answers /wait when they change, sends /input's clicks and keys to the
// portal, costs no CPU once still, and closes the session when it stops;
// with --capture-region, only that part of the screen, clicked in place.
#include <gtest/gtest.h>

#include <filesystem>
#include <future>

#include <nlohmann/json.hpp>

#include "http_client.h"
#include "idle_checks.h"
#include "media_probe.h"
#include "screenshot_checks.h"
#include "portal_rig.h"
#include "voxl_process.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
constexpr auto kLimit = std::chrono::milliseconds(60s);

HttpAnswer post_input(uint16_t port, const std::string& body) {
  return http_request(port, {"POST", "/input", {{"content-type", "application/json"}}}, body, kLimit);
}

TEST(PortalDesktopTest, StreamsThePortalsScreenAndSendsItInput) {
  PortalRig rig;
  TestPortal portal(rig, {"--size", "320x240"});
  std::vector<std::string> env = rig.environment();
  const std::string state = rig.runtime_dir() + "/state";
  env.push_back("XDG_STATE_HOME=" + state);
  VoxlProcess voxl("", {"--backend=portal", "--log-level=debug"}, kLimit, env);
  EXPECT_TRUE(voxl.wait_for_log("desktop: Wayland through the desktop portal (--backend portal)", 1s)) << voxl.log();
  EXPECT_TRUE(voxl.wait_for_log("with keyboard and pointer", 1s)) << voxl.log();
  EXPECT_TRUE(std::filesystem::exists(state + "/voxl/portal-restore-token")) << voxl.log();

  EXPECT_EQ(screen_becomes(voxl.port(), 0x202020, {}, Size{320, 240}), "") << voxl.log();
  const HttpAnswer shot = http_request(voxl.port(), {"GET", "/screenshot", {}}, kLimit);
  const uint64_t seq = std::stoull(shot.header("x-voxl-seq"));

  // /wait, asked before the desktop changes, returns with the change.
  auto waited = std::async(std::launch::async, [&] {
    return http_request(voxl.port(), {"GET", "/wait?change&since=" + std::to_string(seq) + "&timeout=60", {}},
                        kLimit);
  });
  ASSERT_TRUE(voxl.wait_for_log("waiting)", 30s) || waited.wait_for(0s) == std::future_status::ready);
  portal.draw("fill 336699");
  EXPECT_EQ(screen_becomes(voxl.port(), 0x336699, {}, Size{320, 240}), "");
  const HttpAnswer w = waited.get();
  EXPECT_EQ(w.status, 200) << w.body;
  EXPECT_TRUE(nlohmann::json::parse(w.body, nullptr, false).value("changed", false)) << w.body;

  // A click and a key reach the portal.
  const HttpAnswer click = post_input(voxl.port(), R"({"type":"click","x":100,"y":50})");
  EXPECT_EQ(click.status, 200) << click.body;
  EXPECT_NE(portal.next_line("motion").find(" 100 50"), std::string::npos);
  EXPECT_EQ(portal.next_line("button"), "button 272 1");
  EXPECT_EQ(portal.next_line("button"), "button 272 0");
  const HttpAnswer typed = post_input(voxl.port(), R"({"type":"type","text":"Zж"})");
  EXPECT_EQ(typed.status, 200) << typed.body;
  EXPECT_EQ(portal.next_line("keysym"), "keysym 90 1");  // Z
  EXPECT_EQ(portal.next_line("keysym"), "keysym 90 0");
  EXPECT_EQ(portal.next_line("keysym"), "keysym " + std::to_string(0x1000000 + 0x436) + " 1");  // ж, by code point
  EXPECT_EQ(costs_nothing_while_still(voxl.port(), voxl.pid(), [&] { portal.draw("fill 112233"); }), "");

  EXPECT_EQ(voxl.stop(), 0) << voxl.log();
  EXPECT_NE(portal.next_line("closed"), "");
}

TEST(PortalDesktopTest, ARegionOfTheScreenIsStreamedAndClickedInPlace) {
  PortalRig rig;
  TestPortal portal(rig, {"--size", "320x240"});
  std::vector<std::string> env = rig.environment();
  env.push_back("XDG_STATE_HOME=" + rig.runtime_dir() + "/state");
  VoxlProcess voxl("", {"--backend=portal", "--capture-region=100,50,120,100"}, kLimit, env);
  EXPECT_EQ(screen_becomes(voxl.port(), 0x202020, {}, Size{120, 100}), "") << voxl.log();
  // A click at the region's (10, 20) is the monitor's (110, 70).
  const HttpAnswer click = post_input(voxl.port(), R"({"type":"click","x":10,"y":20})");
  EXPECT_EQ(click.status, 200) << click.body;
  EXPECT_NE(portal.next_line("motion").find(" 110 70"), std::string::npos);
  EXPECT_EQ(voxl.stop(), 0) << voxl.log();
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
