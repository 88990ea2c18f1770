// Capture from headless sway through wlr-screencopy: exact pixels of a
// window a Wayland program drew, damage that covers only what changed, an
// idle output that costs no frame, a region of the output alone, and the
// damage watcher behind /wait.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "platform/wayland/screencopy_capturer.h"
#include "platform/wayland/screencopy_damage_watcher.h"
#include "wayland_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using platform::wayland::ScreencopyCapturer;
using platform::wayland::ScreencopyDamageWatcher;

TEST(WaylandCapture, ExactPixelsAndOnlyTheDamageThatChanged) {
  auto sway = start_sway({320, 240});
  ProbeProgram probe(*sway, 0x336699);
  ScreencopyCapturer cap(sway->socket_path(), quiet_log());
  EXPECT_EQ(cap.size(), (Size{320, 240}));
  capture::FramePool pool(2);

  // The probe's first picture may come after the compositor's first frame:
  // wait until the whole output shows it.
  capture::FrameRef frame;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  do {
    auto r = capture_until_ok(cap, pool);
    ASSERT_EQ(r.status, capture::CaptureStatus::kOk) << r.error;
    frame = r.frame;
  } while (!first_mismatch(*frame, [](int, int) { return 0x336699u; }).empty() &&
           std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(first_mismatch(*frame, [](int, int) { return 0x336699u; }), "");
  frame.reset();

  // The compositor counts damage for this capturer from its first frame
  // asked for after damage, which it reports whole: one change to start.
  probe.draw("rect 0 0 1 1 336699");
  ASSERT_EQ(capture_until_ok(cap, pool).status, capture::CaptureStatus::kOk);

  probe.draw("rect 40 30 50 20 ff8000");
  const Rect drawn{40, 30, 50, 20};
  auto r = capture_until_ok(cap, pool);
  ASSERT_EQ(r.status, capture::CaptureStatus::kOk) << r.error;
  const auto inside = [&](int x, int y) { return x >= 40 && x < 90 && y >= 30 && y < 50; };
  EXPECT_EQ(first_mismatch(*r.frame, [&](int x, int y) { return inside(x, y) ? 0xff8000u : 0x336699u; }), "");
  // The compositor's boxes hold the rectangle and little else.
  Rect box;
  for (const Rect& d : r.frame->damage_rects) box = box.bounding(d);
  EXPECT_TRUE(box.contains(drawn)) << to_string(box);
  EXPECT_LE(box.area(), 4 * drawn.area()) << to_string(box);
  r.frame.reset();

  // Nothing draws: no frame.
  EXPECT_EQ(cap.capture(pool, std::chrono::milliseconds(300)).status, capture::CaptureStatus::kNoChange);
  // A key frame is asked for: the whole picture comes, at once.
  cap.invalidate_all();
  r = cap.capture(pool, std::chrono::seconds(10));
  ASSERT_EQ(r.status, capture::CaptureStatus::kOk) << r.error;
  EXPECT_EQ(r.frame->damage_blocks.count(), r.frame->damage_blocks.columns() * r.frame->damage_blocks.rows());
}

TEST(WaylandCapture, ARegionIsCapturedAloneWithDamageFromItsCorner) {
  auto sway = start_sway({320, 240});
  ProbeProgram probe(*sway, 0x336699);
  const Rect region{100, 50, 80, 60};
  ScreencopyCapturer cap(sway->socket_path(), quiet_log(), region);
  EXPECT_EQ(cap.size(), region.size());
  EXPECT_EQ(cap.origin(), (Point{100, 50}));
  capture::FramePool pool(2);
  // The compositor's first answers are whole: taken until the region is
  // still, so that only what is drawn below is pending.
  const auto quiet_by = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (cap.capture(pool, std::chrono::milliseconds(300)).status == capture::CaptureStatus::kOk)
    ASSERT_LT(std::chrono::steady_clock::now(), quiet_by) << "the output never went still";

  // A rectangle across the region's corner: its part inside, in the
  // region's own pixels.
  probe.draw("rect 90 40 30 30 ff8000");
  auto r = capture_until_ok(cap, pool);
  ASSERT_EQ(r.status, capture::CaptureStatus::kOk) << r.error;
  EXPECT_EQ(r.frame->size(), region.size());
  EXPECT_EQ(r.frame->origin, (Point{100, 50}));
  const auto inside = [](int x, int y) { return x < 20 && y < 20; };
  EXPECT_EQ(first_mismatch(*r.frame, [&](int x, int y) { return inside(x, y) ? 0xff8000u : 0x336699u; }), "");
  Rect box;
  for (const Rect& d : r.frame->damage_rects) box = box.bounding(d);
  EXPECT_TRUE(Rect::from_size(region.size()).contains(box)) << to_string(box);
  EXPECT_TRUE(box.contains({0, 0, 20, 20})) << to_string(box);
  r.frame.reset();

  // A change outside the region is no frame. A compositor's damage may
  // hold more than it just drew (wlroots sends the bounds of everything
  // repainted, which can reach back a frame or two), so a frame may still
  // come now and then: each try takes whatever came first, draws outside
  // at a new place, and one capture must see nothing. Without the region's
  // filter every try would give a frame.
  bool quiet = false;
  for (int i = 0; i < 5 && !quiet; ++i) {
    const auto still_by = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (cap.capture(pool, std::chrono::milliseconds(300)).status == capture::CaptureStatus::kOk)
      ASSERT_LT(std::chrono::steady_clock::now(), still_by) << "the output never went still";
    probe.draw("rect 10 " + std::to_string(10 + 40 * i) + " 20 20 00ff00");
    quiet = cap.capture(pool, std::chrono::milliseconds(500)).status == capture::CaptureStatus::kNoChange;
  }
  EXPECT_TRUE(quiet) << "every drawing outside the region gave a frame";
}

TEST(WaylandCapture, ARegionOffTheOutputIsRefused) {
  auto sway = start_sway({160, 120});
  try {
    ScreencopyCapturer cap(sway->socket_path(), quiet_log(), Rect{100, 50, 80, 60});
    FAIL() << "a region past the output's edge was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("does not lie on the 160x120 Wayland output"), std::string::npos) << e.what();
  }
}

TEST(WaylandCapture, WakeEndsAWait) {
  auto sway = start_sway({160, 120});
  ScreencopyCapturer cap(sway->socket_path(), quiet_log());
  capture::FramePool pool(2);
  ASSERT_EQ(capture_until_ok(cap, pool).status, capture::CaptureStatus::kOk);
  // The next frame is asked for after damage as soon as one is taken, and
  // the compositor answers the first such request at once, whole: taken
  // too, so that nothing has changed when the wait below starts.
  const auto quiet_by = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (cap.capture(pool, std::chrono::milliseconds(300)).status == capture::CaptureStatus::kOk)
    ASSERT_LT(std::chrono::steady_clock::now(), quiet_by) << "the output never went still";
  cap.wake();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(cap.capture(pool, std::chrono::seconds(60)).status, capture::CaptureStatus::kNoChange);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(WaylandDamageWatcher, ReportsWhatAProgramDrew) {
  auto sway = start_sway({320, 240});
  ProbeProgram probe(*sway, 0x102030);
  boost::asio::io_context io;
  ScreencopyDamageWatcher watcher(io, sway->socket_path());
  // Whatever was reported before the drawing below is taken away first.
  std::vector<Rect> rects;
  watcher.sync();
  watcher.poll();
  watcher.take(rects);
  rects.clear();

  bool ready = false;
  watcher.async_wait([&] { ready = true; });
  probe.draw("rect 100 60 30 30 00ff00");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    io.run_one_for(std::chrono::milliseconds(200));
    if (ready && watcher.poll()) break;
    if (ready) {
      ready = false;
      watcher.async_wait([&] { ready = true; });
    }
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no damage reported";
  }
  // Reported and not taken: quiet, however long, as the contract asks (it
  // once posted its report again at every wait, a core's worth of spinning
  // while the screen was still).
  bool again = false;
  watcher.async_wait([&] { again = true; });
  io.restart();  // it may have run out of work above
  const size_t handlers = io.run_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(again);
  EXPECT_LT(handlers, 10u);
  ASSERT_TRUE(watcher.take(rects));
  Rect box;
  for (const Rect& d : rects) box = box.bounding(d);
  EXPECT_TRUE(box.contains({100, 60, 30, 30})) << to_string(box);
  EXPECT_FALSE(watcher.failed());
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
