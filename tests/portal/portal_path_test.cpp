// voxl's side of the desktop portal (src/platform/portal) against the
// tests' own portal on a private bus, PipeWire and WirePlumber
// (portal_rig.h): the session's handshake and its restore token, the
// picture's exact pixels and damage through PipeWire (and a region's),
// input arriving as the portal's Notify calls, the damage watcher behind
// /wait, and what voxl says when the portal refuses, offers the picture
// alone, ends the session, or is not there.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "../common/capture_checks.h"
#include "base/logging.h"
#include "input/key_mapping.h"
#include "platform/portal/portal_capturer.h"
#include "platform/portal/portal_damage_watcher.h"
#include "platform/portal/portal_input_injector.h"
#include "platform/portal/portal_session.h"
#include "portal_rig.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using platform::portal::PortalCapturer;
using platform::portal::PortalDamageWatcher;
using platform::portal::PortalInputInjector;
using platform::portal::PortalSession;
using platform::portal::PortalSessionOptions;

Logger quiet() {
  auto log = make_stderr_logger("portal-test");
  log->set_level(spdlog::level::warn);
  return log;
}

PortalSessionOptions on(const PortalRig& rig, const std::string& token = "") {
  PortalSessionOptions o;
  o.bus_address = rig.bus_address();
  o.restore_token = token;
  return o;
}

// Captures for up to 30 s until a frame shows `expected` (0xRRGGBB at x, y):
// that frame, else the last one (null when none came).
template <class Expected>
capture::FrameRef frame_showing(capture::Capturer& cap, capture::FramePool& pool, Expected expected) {
  capture::FrameRef last;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline) {
    auto r = cap.capture(pool, 500ms);
    if (r.status != capture::CaptureStatus::kOk) continue;
    last = std::move(r.frame);
    if (first_mismatch(*last, expected).empty()) break;
  }
  return last;
}

// Captures until the whole frame is `colour`; the last mismatch, or empty.
std::string frame_becomes(capture::Capturer& cap, capture::FramePool& pool, uint32_t colour) {
  const auto expected = [colour](int, int) { return colour; };
  const capture::FrameRef frame = frame_showing(cap, pool, expected);
  return frame ? first_mismatch(*frame, expected) : "no frame";
}

TEST(PortalPath, ExactPixelsAndOnlyWhatChanged) {
  PortalRig rig;
  TestPortal portal(rig);
  auto session = std::make_shared<PortalSession>(on(rig), quiet());
  ASSERT_TRUE(session->stream().size.has_value());
  EXPECT_EQ(*session->stream().size, (Size{640, 360}));
  EXPECT_TRUE(session->input());
  EXPECT_NE(portal.next_line("started"), "");

  PortalCapturer cap(session, quiet());
  EXPECT_EQ(cap.size(), (Size{640, 360}));
  capture::FramePool pool(2);
  EXPECT_EQ(frame_becomes(cap, pool, 0x202020), "");

  portal.draw("rect 40 30 50 20 ff8000");
  const Rect drawn{40, 30, 50, 20};
  const auto inside = [&](int x, int y) { return drawn.contains({x, y, 1, 1}); };
  const auto expected = [&](int x, int y) { return inside(x, y) ? 0xff8000u : 0x202020u; };
  capture::FrameRef frame = frame_showing(cap, pool, expected);
  ASSERT_TRUE(frame) << "no frame came";
  EXPECT_EQ(first_mismatch(*frame, expected), "");
  Rect box;
  for (const Rect& d : frame->damage_rects) box = box.bounding(d);
  EXPECT_TRUE(box.contains(drawn)) << to_string(box);
  EXPECT_LE(box.area(), 4 * drawn.area()) << to_string(box);
  frame.reset();

  // Nothing draws: no frame. A key frame comes from the kept picture.
  EXPECT_EQ(cap.capture(pool, 300ms).status, capture::CaptureStatus::kNoChange);
  cap.invalidate_all();
  auto r = cap.capture(pool, 10s);
  ASSERT_EQ(r.status, capture::CaptureStatus::kOk) << r.error;
  EXPECT_EQ(first_mismatch(*r.frame, expected), "");
  EXPECT_EQ(r.frame->damage_blocks.count(), r.frame->damage_blocks.columns() * r.frame->damage_blocks.rows());
}

TEST(PortalPath, ARegionIsCapturedAloneWithDamageFromItsCorner) {
  PortalRig rig;
  TestPortal portal(rig, {"--size", "320x240"});
  auto session = std::make_shared<PortalSession>(on(rig), quiet());
  const Rect region{100, 50, 80, 60};
  PortalCapturer cap(session, quiet(), region);
  EXPECT_EQ(cap.size(), region.size());
  EXPECT_EQ(cap.origin(), (Point{100, 50}));
  EXPECT_NE(cap.describe().find("region 80x60+100+50"), std::string::npos) << cap.describe();
  capture::FramePool pool(2);
  EXPECT_EQ(frame_becomes(cap, pool, 0x202020), "");

  // A rectangle across the region's corner: its part inside, in the
  // region's own pixels.
  portal.draw("rect 90 40 30 30 ff8000");
  const auto expected = [](int x, int y) { return x < 20 && y < 20 ? 0xff8000u : 0x202020u; };
  capture::FrameRef frame = frame_showing(cap, pool, expected);
  ASSERT_TRUE(frame) << "no frame came";
  EXPECT_EQ(first_mismatch(*frame, expected), "");
  EXPECT_EQ(frame->origin, (Point{100, 50}));
  Rect box;
  for (const Rect& d : frame->damage_rects) box = box.bounding(d);
  EXPECT_TRUE(Rect::from_size(region.size()).contains(box)) << to_string(box);
  EXPECT_TRUE(box.contains({0, 0, 20, 20})) << to_string(box);
  frame.reset();

  // A change outside the region is no frame.
  portal.draw("rect 10 10 20 20 00ff00");
  EXPECT_EQ(cap.capture(pool, 500ms).status, capture::CaptureStatus::kNoChange);
  EXPECT_EQ(cap.capture(pool, 300ms).status, capture::CaptureStatus::kNoChange);

  // A region past the picture's edge is refused.
  try {
    PortalCapturer off(session, quiet(), Rect{300, 200, 80, 60});
    FAIL() << "a region past the picture's edge was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("does not lie on the 320x240 screen"), std::string::npos) << e.what();
  }
}

TEST(PortalPath, RedFirstPicturesArriveSwapped) {
  PortalRig rig;
  TestPortal portal(rig, {"--format", "RGBx", "--size", "160x120"});
  auto session = std::make_shared<PortalSession>(on(rig), quiet());
  PortalCapturer cap(session, quiet());
  EXPECT_NE(cap.describe().find("RGBx"), std::string::npos) << cap.describe();
  capture::FramePool pool(2);
  portal.draw("fill 112233");
  EXPECT_EQ(frame_becomes(cap, pool, 0x112233), "");
}

TEST(PortalPath, InputArrivesAsTheCallsOfThePortal) {
  PortalRig rig;
  TestPortal portal(rig);
  auto session = std::make_shared<PortalSession>(on(rig), quiet());
  const std::string node = std::to_string(session->stream().node);
  PortalInputInjector in(session, quiet());
  EXPECT_EQ(in.desktop_size(), (Size{640, 360}));

  in.move(100, 50);
  EXPECT_EQ(portal.next_line("motion"), "motion " + node + " 100 50");
  in.move(5000, -3);  // clamped to the monitor
  EXPECT_EQ(portal.next_line("motion"), "motion " + node + " 639 0");
  EXPECT_EQ(in.pointer_position(), (Point{639, 0}));
  in.button(input::kButtonLeft, true);
  in.button(input::kButtonLeft, false);
  EXPECT_EQ(portal.next_line("button"), "button 272 1");
  EXPECT_EQ(portal.next_line("button"), "button 272 0");
  in.button(input::kButtonRight, true);
  EXPECT_EQ(portal.next_line("button"), "button 273 1");
  in.scroll_notches(-1, 2);
  EXPECT_EQ(portal.next_line("axis"), "axis 0 2");
  EXPECT_EQ(portal.next_line("axis"), "axis 1 -1");

  EXPECT_EQ(in.key('a', true), input::InputStatus::kOk);
  EXPECT_EQ(portal.next_line("keysym"), "keysym 97 1");
  // Any character: the compositor finds its key.
  ASSERT_EQ(in.type_text("é€"), input::InputStatus::kOk);
  for (char32_t c : {U'é', U'€'}) {
    const std::string sym = std::to_string(*input::keysym_for_char(c));
    EXPECT_EQ(portal.next_line("keysym"), "keysym " + sym + " 1");
    EXPECT_EQ(portal.next_line("keysym"), "keysym " + sym + " 0");
  }
  EXPECT_FALSE(in.failed());
}

TEST(PortalPath, TheRestoreTokenSkipsTheQuestion) {
  PortalRig rig;
  std::string token;
  {
    TestPortal portal(rig);
    PortalSession first(on(rig), quiet());
    token = first.restore_token();
    ASSERT_FALSE(token.empty());
  }
  TestPortal portal(rig);
  PortalSession second(on(rig, token), quiet());
  EXPECT_EQ(portal.next_line("restore"), "restore " + token);
}

TEST(PortalPath, RefusalsAndEndsAreSaid) {
  PortalRig rig;
  try {
    PortalSession none(on(rig), quiet());
    ADD_FAILURE() << "a session without a portal";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no desktop portal"), std::string::npos) << e.what();
  }
  {
    TestPortal portal(rig, {"--refuse"});
    try {
      PortalSession refused(on(rig), quiet());
      ADD_FAILURE() << "a refused session started";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("declined"), std::string::npos) << e.what();
    }
  }
  {
    // xdg-desktop-portal-wlr's way: the picture, no input.
    TestPortal portal(rig, {"--no-remote-desktop"});
    auto session = std::make_shared<PortalSession>(on(rig), quiet());
    EXPECT_FALSE(session->input());
    EXPECT_NE(session->input_refusal().find("RemoteDesktop"), std::string::npos) << session->input_refusal();
    EXPECT_THROW(PortalInputInjector(session, quiet()), std::runtime_error);
    PortalCapturer cap(session, quiet());
    capture::FramePool pool(2);
    EXPECT_EQ(frame_becomes(cap, pool, 0x202020), "");
  }
  {
    // The desktop ends the session (its user stopped sharing).
    TestPortal portal(rig, {"--close-after-start"});
    auto session = std::make_shared<PortalSession>(on(rig), quiet());
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (!session->closed() && std::chrono::steady_clock::now() < deadline) {
      PortalInputInjector in(session, quiet());
      in.move(1, 1);  // reads the bus as it sends
    }
    EXPECT_TRUE(session->closed());
    EXPECT_THROW(PortalCapturer(session, quiet()), std::runtime_error);
  }
}

TEST(PortalPath, TheDamageWatcherReportsWhatWasDrawn) {
  PortalRig rig;
  TestPortal portal(rig);
  auto session = std::make_shared<PortalSession>(on(rig), quiet());
  boost::asio::io_context io;
  PortalDamageWatcher watcher(io, session);
  std::vector<Rect> rects;
  ASSERT_TRUE(watcher.take(rects));
  rects.clear();
  bool ready = false;
  watcher.async_wait([&] { ready = true; });
  portal.draw("rect 10 20 30 40 00ff00");
  const Rect drawn{10, 20, 30, 40};
  Rect box;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!box.contains(drawn) && std::chrono::steady_clock::now() < deadline) {
    io.restart();  // run_for() stops the context when it runs out of work
    io.run_for(200ms);
    if (!ready) continue;
    ready = false;
    if (watcher.poll()) {
      ASSERT_TRUE(watcher.take(rects));
      for (const Rect& r : rects) box = box.bounding(r);
    }
    watcher.async_wait([&] { ready = true; });
  }
  EXPECT_TRUE(box.contains(drawn)) << to_string(box);
  EXPECT_FALSE(watcher.failed());
}

// Runs `io` until `ready` or 30 s; whether it came.
bool run_until(boost::asio::io_context& io, const bool& ready) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!ready && std::chrono::steady_clock::now() < deadline) {
    io.restart();
    io.run_for(100ms);
  }
  return ready;
}

TEST(PortalPath, TheDamageWatcherStaysQuietUntilTaken) {
  PortalRig rig;
  TestPortal portal(rig);
  auto session = std::make_shared<PortalSession>(on(rig), quiet());
  boost::asio::io_context io;
  PortalDamageWatcher watcher(io, session);
  bool ready = false;
  watcher.async_wait([&] { ready = true; });
  portal.draw("rect 0 0 10 10 ff0000");
  ASSERT_TRUE(run_until(io, ready));
  EXPECT_TRUE(watcher.poll());
  // Reported and not taken: more drawing calls nobody.
  ready = false;
  watcher.async_wait([&] { ready = true; });
  portal.draw("rect 20 20 10 10 00ff00");
  io.restart();
  io.run_for(300ms);
  EXPECT_FALSE(ready);
  // Taken: both changes are in it, and the next one is reported again.
  std::vector<Rect> rects;
  Rect box;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!box.contains({20, 20, 10, 10}) && std::chrono::steady_clock::now() < deadline) {
    ASSERT_TRUE(watcher.take(rects));
    for (const Rect& r : rects) box = box.bounding(r);
    io.restart();
    io.run_for(100ms);
  }
  EXPECT_TRUE(box.contains({0, 0, 10, 10})) << to_string(box);
  EXPECT_TRUE(box.contains({20, 20, 10, 10})) << to_string(box);
  ready = false;
  portal.draw("rect 40 40 10 10 0000ff");
  EXPECT_TRUE(run_until(io, ready));
}

TEST(PortalPath, WhenTheUserStopsSharingCaptureAndWatchSaySo) {
  PortalRig rig;
  TestPortal portal(rig);
  auto session = std::make_shared<PortalSession>(on(rig), quiet());
  PortalCapturer cap(session, quiet());
  capture::FramePool pool(2);
  ASSERT_EQ(frame_becomes(cap, pool, 0x202020), "");
  boost::asio::io_context io;
  PortalDamageWatcher watcher(io, session);
  portal.draw("stop");
  // Key frames are asked for throughout: none may read a picture the
  // desktop took back.
  capture::CaptureResult r;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  do {
    cap.invalidate_all();
    r = cap.capture(pool, 200ms);
  } while (r.status != capture::CaptureStatus::kReinit && std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(r.status, capture::CaptureStatus::kReinit) << r.error;
  EXPECT_FALSE(r.error.empty());
  EXPECT_TRUE(session->closed());
  EXPECT_TRUE(watcher.failed());
  EXPECT_THROW(PortalCapturer(session, quiet()), std::runtime_error);
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
