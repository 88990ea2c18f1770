// Damage drives capture: nothing changes, no frame; a drawing shows up as
// damage covering exactly what was drawn.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using capture::CaptureStatus;
using capture::FramePool;
using platform::x11::VirtualDisplay;
using platform::x11::X11CaptureOptions;
using platform::x11::X11Capturer;

class Damage : public ::testing::Test {
 protected:
  Damage() : xvfb_([] {
      platform::x11::VirtualDisplayOptions vo;
      vo.size = {800, 600};
      return vo;
    }()), painter_(xvfb_.name()) {}

  X11CaptureOptions options() {
    X11CaptureOptions o;
    o.display = xvfb_.name();
    o.log = log_.log;
    return o;
  }

  VirtualDisplay xvfb_;
  Painter painter_;
  CapturedLog log_ = make_captured_log();
};

TEST_F(Damage, IdleScreenProducesNoFrames) {
  X11Capturer cap(options());
  FramePool pool(1);
  auto first = capture_until_ok(cap, pool);
  ASSERT_EQ(first.status, CaptureStatus::kOk);
  EXPECT_EQ(first.frame->damage_blocks.count(), first.frame->damage_blocks.columns() * first.frame->damage_blocks.rows())
      << "the first frame is all damage";
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(cap.capture(pool, std::chrono::milliseconds(300)).status, CaptureStatus::kNoChange);
}

TEST_F(Damage, WaitForChangeWaitsWithoutCapturing) {
  X11Capturer cap(options());
  FramePool pool(2);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  EXPECT_FALSE(cap.wait_for_change(std::chrono::milliseconds(300))) << "a still screen";
  const Rect drawn{200, 100, 40, 40};
  painter_.fill(painter_.root(), drawn, 0x00ff00);
  // The generous limit only bounds a wait for an event that must come.
  ASSERT_TRUE(cap.wait_for_change(std::chrono::seconds(30)));
  EXPECT_TRUE(cap.wait_for_change(std::chrono::milliseconds(0))) << "still pending: nothing captured it";
  auto r = cap.capture(pool, std::chrono::milliseconds(0));
  ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  ASSERT_FALSE(r.frame->damage_rects.empty());
  EXPECT_TRUE(r.frame->damage_rects.front().contains(drawn));
  r = {};
  EXPECT_FALSE(cap.wait_for_change(std::chrono::milliseconds(0))) << "taken by that capture";
}

TEST_F(Damage, DrawnRectangleIsExactlyTheDamage) {
  X11Capturer cap(options());
  FramePool pool(2);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  const Rect drawn{100, 50, 30, 20};
  painter_.fill(painter_.root(), drawn, 0xff8800);
  auto r = capture_until_ok(cap, pool);
  ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  const capture::Frame& f = *r.frame;
  EXPECT_EQ(f.seq, 2u);
  ASSERT_FALSE(f.damage_rects.empty());
  BlockMap expected(f.size());
  expected.add(drawn);
  BlockMap from_rects(f.size());
  for (const Rect& d : f.damage_rects) {
    EXPECT_TRUE(Rect::from_size(f.size()).contains(d)) << to_string(d);
    from_rects.add(d);
  }
  EXPECT_EQ(f.damage_blocks, expected) << "blocks 6..8 x 3..4";
  EXPECT_EQ(from_rects, expected);
  EXPECT_EQ(f.pixel(100, 50), 0xff8800u);
  EXPECT_EQ(f.pixel(129, 69), 0xff8800u);
  EXPECT_EQ(cap.capture(pool, std::chrono::milliseconds(200)).status, CaptureStatus::kNoChange);
}

TEST_F(Damage, RegionSeesOnlyItsOwnChangesInItsOwnCoordinates) {
  auto o = options();
  o.target = X11CaptureOptions::Target::kRegion;
  o.region = {200, 100, 300, 200};
  X11Capturer cap(o);
  FramePool pool(1);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  painter_.fill(painter_.root(), {0, 0, 150, 90}, 0x00ff00);  // outside
  EXPECT_EQ(cap.capture(pool, std::chrono::milliseconds(300)).status, CaptureStatus::kNoChange);
  painter_.fill(painter_.root(), {190, 95, 20, 20}, 0x0000ff);  // overlaps the corner
  auto r = capture_until_ok(cap, pool);
  ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  ASSERT_EQ(r.frame->damage_rects.size(), 1u);
  EXPECT_EQ(r.frame->damage_rects[0], (Rect{0, 0, 10, 15}));
  EXPECT_EQ(r.frame->pixel(0, 0), 0x0000ffu);
  EXPECT_EQ(r.frame->pixel(9, 14), 0x0000ffu);
}

TEST_F(Damage, FramesSayWhereTheirAreaLiesOnTheScreen) {
  FramePool pool(1);
  {
    X11Capturer cap(options());
    EXPECT_EQ(cap.origin(), (Point{0, 0}));
    auto r = capture_until_ok(cap, pool);
    ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
    EXPECT_EQ(r.frame->origin, (Point{0, 0}));
  }
  {
    auto o = options();
    o.target = X11CaptureOptions::Target::kRegion;
    o.region = {200, 100, 300, 200};
    X11Capturer cap(o);
    auto r = capture_until_ok(cap, pool);
    ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
    EXPECT_EQ(r.frame->origin, (Point{200, 100}));
  }
  {
    auto o = options();
    o.target = X11CaptureOptions::Target::kWindow;
    o.window = painter_.create_window({130, 70, 101, 51}, 0xff0000);
    X11Capturer cap(o);
    EXPECT_EQ(cap.origin(), (Point{130, 70}));
    auto r = capture_until_ok(cap, pool);
    ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
    EXPECT_EQ(r.frame->origin, (Point{130, 70}));
    EXPECT_EQ(r.frame->size(), (Size{101, 51}));
  }
}

TEST_F(Damage, AWindowMovedWithoutNewPixelsStillMakesAFrameThatSaysWhere) {
  auto o = options();
  o.target = X11CaptureOptions::Target::kWindow;
  o.window = painter_.create_window({130, 70, 101, 51}, 0xff0000);
  X11Capturer cap(o);
  FramePool pool(1);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  EXPECT_EQ(cap.capture(pool, std::chrono::milliseconds(200)).status, CaptureStatus::kNoChange);
  painter_.move_window(o.window, {400, 300});
  auto r = capture_until_ok(cap, pool);
  ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  EXPECT_EQ(r.frame->origin, (Point{400, 300}));
  EXPECT_EQ(cap.origin(), (Point{400, 300}));
  EXPECT_EQ(r.frame->pixel(50, 25), 0xff0000u);
}

TEST_F(Damage, InvalidateForcesAGrabWithoutDamage) {
  X11Capturer cap(options());
  FramePool pool(1);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  cap.invalidate({10, 10, 64, 64});
  auto r = cap.capture(pool, std::chrono::milliseconds(0));
  ASSERT_EQ(r.status, CaptureStatus::kOk);
  EXPECT_EQ(r.frame->damage_blocks.count(), 5 * 5);  // 10..73 touches blocks 0..4
}

TEST_F(Damage, WakeEndsAWaitingCapture) {
  X11Capturer cap(options());
  FramePool pool(1);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  std::thread waker([&] { cap.wake(); });
  // Without the wake this would wait for ten minutes (past the test's limit).
  EXPECT_EQ(cap.capture(pool, std::chrono::minutes(10)).status, CaptureStatus::kNoChange);
  waker.join();
}

TEST_F(Damage, ScreenShrunkByRandrIsFollowed) {
  auto o = options();
  o.framebuffer_shmid = xvfb_.framebuffer_shmid();
  X11Capturer cap(o);
  ASSERT_EQ(cap.source_kind(), platform::x11::SourceKind::kFramebuffer);
  FramePool pool(2);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);

  const std::string env = "DISPLAY=" + xvfb_.name() + " ";
  const std::string cmd =
      env + "xrandr --newmode voxltest 25.18 640 656 752 800 480 490 492 525 && " + env +
      "xrandr --addmode screen voxltest && " + env + "xrandr --output screen --mode voxltest";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  painter_.paint_pattern({0, 0, 640, 480});

  capture::CaptureResult r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  do {
    r = capture_until_ok(cap, pool);
    ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  } while ((r.frame->size() != Size{640, 480} || !first_mismatch(*r.frame, pattern_at).empty()) &&
           std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(r.frame->size(), (Size{640, 480}));
  EXPECT_EQ(first_mismatch(*r.frame, pattern_at), "");
  EXPECT_EQ(cap.source_kind(), platform::x11::SourceKind::kFramebuffer)
      << "the header keeps the old stride; the visible area is the top-left";
}

}  // namespace
}  // namespace voxl::testing
