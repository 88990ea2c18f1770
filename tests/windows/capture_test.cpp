// The Windows capturer and damage watcher against a real (Wine) desktop: a
// window painted with known colors through GDI, read back by the capturer.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <future>
#include <optional>

#include "base/logging.h"
#include "capture/frame_pool.h"
#include "platform/windows/capture/capture_plan.h"
#include "platform/windows/capture/dxgi_duplicator.h"
#include "platform/windows/capture/image_blocks.h"
#include "platform/windows/capture/monitors.h"
#include "platform/windows/capture/windows_capturer.h"
#include "platform/windows/capture/windows_damage_watcher.h"
#include "test_window.h"

namespace voxl::platform::windows {
namespace {

using capture::CaptureStatus;
using namespace std::chrono_literals;
using test::Paint;
using test::TestWindow;

constexpr uint32_t kRed = 0xff0000, kBlue = 0x0000ff, kGreen = 0x00ff00;
// Generous: a loaded two-core machine running Wine.
constexpr auto kDeadline = 20s;

const Rect kWhere{100, 80, 200, 150};
Paint red_with_blue_box() { return {kRed, {{{20, 30, 60, 40}, kBlue}}}; }

Logger test_log() {
  static Logger log = make_stderr_logger("capture-test");
  return log;
}

std::unique_ptr<WindowsCapturer> make_capturer(CaptureTarget target = {}) {
  WindowsCaptureOptions o;
  o.target = target;
  o.log = test_log();
  return std::make_unique<WindowsCapturer>(std::move(o));
}

// Captures until `ok` holds for the newest full picture, or the deadline.
template <typename Pred>
capture::FrameRef capture_until(WindowsCapturer& c, capture::FramePool& pool, Pred ok) {
  const auto end = std::chrono::steady_clock::now() + kDeadline;
  capture::FrameRef last;
  while (std::chrono::steady_clock::now() < end) {
    capture::CaptureResult r = c.capture(pool, 200ms);
    if (r.status == CaptureStatus::kOk) {
      last = r.frame;
      if (ok(*last)) return last;
    } else if (r.status != CaptureStatus::kNoChange && r.status != CaptureStatus::kTemporary) {
      ADD_FAILURE() << to_string(r.status) << ": " << r.error;
      return nullptr;
    }
  }
  return nullptr;
}

// Captures until the screen stays unchanged for one capture.
bool settle(WindowsCapturer& c, capture::FramePool& pool) {
  const auto end = std::chrono::steady_clock::now() + kDeadline;
  while (std::chrono::steady_clock::now() < end)
    if (c.capture(pool, 300ms).status == CaptureStatus::kNoChange) return true;
  return false;
}

bool shows_red_with_blue_box(const capture::Frame& f, int x0, int y0) {
  return f.pixel(x0 + 5, y0 + 5) == kRed && f.pixel(x0 + 20, y0 + 30) == kBlue &&
         f.pixel(x0 + 79, y0 + 69) == kBlue && f.pixel(x0 + 19, y0 + 30) == kRed &&
         f.pixel(x0 + 80, y0 + 69) == kRed && f.pixel(x0 + 199, y0 + 149) == kRed;
}

bool covers(const BlockMap& damage, const Rect& r) {
  BlockMap want(damage.frame_size());
  want.add(r);
  BlockMap missing = want;
  missing.subtract(damage);
  return missing.empty();
}

TEST(WindowsCapturePlan, ReasonsForGdi) {
  EXPECT_TRUE(plan_capture({}).try_dxgi);
  CapturePlan p = plan_capture({.dxgi_disabled_by_env = true});
  EXPECT_FALSE(p.try_dxgi);
  EXPECT_NE(p.reason.find(kDisableDxgiEnv), std::string::npos);
  EXPECT_NE(plan_capture({.window_target = true}).reason.find("window"), std::string::npos);
  EXPECT_FALSE(plan_capture({.region_on_one_monitor = false}).try_dxgi);
  EXPECT_TRUE(env_flag_enabled(" Yes "));
  EXPECT_FALSE(env_flag_enabled("0"));
  EXPECT_FALSE(env_flag_enabled(nullptr));
}

TEST(WindowsImageBlocks, DiffMarksOnlyChangedBlocks) {
  const Size s{40, 20};
  std::vector<uint8_t> a(size_t(s.width) * s.height * 4, 0), b = a;
  b[(size_t(17) * s.width + 35) * 4] = 1;  // pixel (35, 17): block column 2, row 1
  BlockMap out(s);
  diff_blocks({a.data(), s.width * 4, s}, {b.data(), s.width * 4, s}, out);
  EXPECT_EQ(out.count(), 1);
  EXPECT_TRUE(out.test(2, 1));
}

TEST(WindowsMonitors, UnknownDisplayNamesTheMonitors) {
  try {
    choose_monitor("57");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("0 = "), std::string::npos) << e.what();
  }
  EXPECT_TRUE(choose_monitor("").monitor.primary);
  EXPECT_EQ(choose_monitor("0").index, 0);
}

TEST(WindowsCapture, GdiFallbackIsChosenWithItsReason) {
  std::string wine;
  if (!running_under_wine(wine)) GTEST_SKIP() << "checks Wine's missing Desktop Duplication";
  auto c = make_capturer();
  EXPECT_FALSE(c->uses_dxgi());
  EXPECT_NE(c->source_reason().find("DXGI Desktop Duplication is not available"), std::string::npos)
      << c->source_reason();
  EXPECT_NE(c->source_reason().find("Wine"), std::string::npos) << c->source_reason();
  EXPECT_NE(c->describe().find("GDI BitBlt"), std::string::npos) << c->describe();
  EXPECT_NE(c->describe().find(c->source_reason()), std::string::npos) << c->describe();
}

TEST(WindowsCapture, ScreenShowsTheWindowsPixelsInPlace) {
  TestWindow w(kWhere, red_with_blue_box());
  auto c = make_capturer();
  capture::FramePool pool(2);
  auto f = capture_until(*c, pool, [](const capture::Frame& fr) {
    return shows_red_with_blue_box(fr, kWhere.x, kWhere.y);
  });
  ASSERT_TRUE(f) << "the window's colors never showed at " << to_string(kWhere);
  EXPECT_EQ(f->size(), c->size());
  EXPECT_EQ(f->origin, (Point{0, 0}));  // the monitor's own corner
}

TEST(WindowsCapture, RegionAndWindowTargetsCrop) {
  TestWindow w(kWhere, red_with_blue_box());
  capture::FramePool pool(2);
  CaptureTarget region;
  region.kind = CaptureTarget::Kind::kRegion;
  region.region = kWhere;
  auto rc = make_capturer(region);
  EXPECT_EQ(rc->size(), kWhere.size());
  auto rf = capture_until(*rc, pool, [](const capture::Frame& f) { return shows_red_with_blue_box(f, 0, 0); });
  ASSERT_TRUE(rf);
  // The primary monitor (the injector's desktop) has its corner at 0,0.
  EXPECT_EQ(rf->origin, (Point{kWhere.x, kWhere.y}));
  EXPECT_EQ(rc->origin(), (Point{kWhere.x, kWhere.y}));

  CaptureTarget window;
  window.kind = CaptureTarget::Kind::kWindow;
  window.window = reinterpret_cast<uintptr_t>(w.hwnd());
  capture::FramePool wpool(2);
  auto wc = make_capturer(window);
  EXPECT_EQ(wc->size(), kWhere.size());
  auto wf = capture_until(*wc, wpool, [](const capture::Frame& f) { return shows_red_with_blue_box(f, 0, 0); });
  ASSERT_TRUE(wf);
  EXPECT_EQ(wf->origin, (Point{kWhere.x, kWhere.y}));

  // Moved without a change of its pixels: a frame still says where it went.
  const Point moved{kWhere.x + 150, kWhere.y + 40};
  ASSERT_TRUE(SetWindowPos(w.hwnd(), nullptr, moved.x, moved.y, 0, 0, SWP_NOSIZE | SWP_NOZORDER | SWP_NOACTIVATE));
  EXPECT_TRUE(capture_until(*wc, wpool, [&](const capture::Frame& f) { return f.origin == moved; }))
      << "the window's move never showed in a frame";
  EXPECT_EQ(wc->origin(), moved);

  w.destroy();
  const auto end = std::chrono::steady_clock::now() + kDeadline;
  CaptureStatus s = CaptureStatus::kOk;
  while (s != CaptureStatus::kPermanent && std::chrono::steady_clock::now() < end) s = wc->capture(wpool, 100ms).status;
  EXPECT_EQ(s, CaptureStatus::kPermanent);
}

TEST(WindowsCapture, DamageFollowsARedraw) {
  TestWindow w(kWhere, red_with_blue_box());
  auto c = make_capturer();
  capture::FramePool pool(2);
  ASSERT_TRUE(capture_until(*c, pool, [](const capture::Frame& f) { return shows_red_with_blue_box(f, kWhere.x, kWhere.y); }));
  ASSERT_TRUE(settle(*c, pool)) << "the screen never stopped changing";

  Paint p = red_with_blue_box();
  const Rect box{120, 90, 40, 30};  // client coordinates
  p.boxes.push_back({box, kGreen});
  w.repaint(p);
  const Rect on_screen = box.translated(kWhere.x, kWhere.y);
  BlockMap seen(c->size());
  auto f = capture_until(*c, pool, [&](const capture::Frame& fr) {
    seen.unite(fr.damage_blocks);
    return fr.pixel(on_screen.x + 1, on_screen.y + 1) == kGreen &&
           fr.pixel(on_screen.right() - 1, on_screen.bottom() - 1) == kGreen;
  });
  ASSERT_TRUE(f) << "the green box never showed";
  EXPECT_TRUE(covers(seen, on_screen));
  EXPECT_FALSE(f->damage_rects.empty());
  // Only around the box, not the whole screen.
  EXPECT_LT(seen.count(), BlockMap(c->size()).columns() * BlockMap(c->size()).rows());
  EXPECT_TRUE(settle(*c, pool));
}

TEST(WindowsCapture, WakeInterruptsAWait) {
  auto c = make_capturer();
  capture::FramePool pool(2);
  ASSERT_TRUE(settle(*c, pool));
  auto waiting = std::async(std::launch::async, [&] { return c->capture(pool, 600s).status; });
  c->wake();
  ASSERT_EQ(waiting.wait_for(120s), std::future_status::ready) << "wake() did not end the wait";
  EXPECT_EQ(waiting.get(), CaptureStatus::kNoChange);

  auto waiting2 = std::async(std::launch::async, [&] { return c->wait_for_change(600s); });
  c->wake();
  ASSERT_EQ(waiting2.wait_for(120s), std::future_status::ready);
  EXPECT_FALSE(waiting2.get());
}

// Until a window is on the screen, a watcher started then would see it appear.
void wait_until_shown() {
  auto c = make_capturer();
  capture::FramePool pool(2);
  ASSERT_TRUE(capture_until(*c, pool, [](const capture::Frame& f) { return shows_red_with_blue_box(f, kWhere.x, kWhere.y); }));
}

// Runs `io` until `done()` or the deadline.
template <typename Done>
void run_until(boost::asio::io_context& io, Done done) {
  const auto end = std::chrono::steady_clock::now() + kDeadline;
  while (!done() && std::chrono::steady_clock::now() < end) {
    io.restart();
    io.run_for(100ms);
  }
}

TEST(WindowsDamageWatcher, ReportsARedraw) {
  TestWindow w(kWhere, red_with_blue_box());
  wait_until_shown();
  boost::asio::io_context io;
  WindowsDamageWatcher watcher(io, make_capturer());
  std::vector<Rect> rects;
  watcher.take(rects);  // start from a quiet screen
  rects.clear();
  bool ready = false;
  watcher.async_wait([&] { ready = true; });

  Paint p = red_with_blue_box();
  const Rect box{10, 100, 50, 20};
  p.boxes.push_back({box, kGreen});
  w.repaint(p);
  run_until(io, [&] { return ready; });
  ASSERT_TRUE(ready) << "the watcher never reported the redraw";
  EXPECT_TRUE(watcher.poll());
  ASSERT_TRUE(watcher.take(rects));
  BlockMap got(make_capturer()->size());
  for (const Rect& r : rects) got.add(r);
  EXPECT_TRUE(covers(got, box.translated(kWhere.x, kWhere.y)));
  EXPECT_FALSE(watcher.failed());
}

// The first change after a take() is reported once: waiting again without
// taking is not called back until someone takes (a loop that re-arms on
// every report would otherwise spin).
TEST(WindowsDamageWatcher, ReportsAChangeOnceUntilTaken) {
  TestWindow w(kWhere, red_with_blue_box());
  wait_until_shown();
  boost::asio::io_context io;
  WindowsDamageWatcher watcher(io, make_capturer());
  std::vector<Rect> rects;
  watcher.take(rects);
  int calls = 0;
  watcher.async_wait([&] { ++calls; });
  Paint p = red_with_blue_box();
  p.boxes.push_back({Rect{10, 100, 50, 20}, kGreen});
  w.repaint(p);
  run_until(io, [&] { return calls > 0; });
  ASSERT_EQ(calls, 1) << "the watcher never reported the redraw";
  EXPECT_TRUE(watcher.poll());

  // Again, without taking: nothing more to report.
  watcher.async_wait([&] { ++calls; });
  io.restart();
  io.poll();
  EXPECT_EQ(calls, 1) << "the same change was reported again";
  EXPECT_TRUE(watcher.poll()) << "the change is still there to take";

  // Taken, then a new change: reported again.
  ASSERT_TRUE(watcher.take(rects));
  p.boxes.push_back({Rect{70, 100, 30, 20}, kGreen});
  w.repaint(p);
  run_until(io, [&] { return calls > 1; });
  EXPECT_EQ(calls, 2) << "the next change after take() was not reported";
}

}  // namespace
}  // namespace voxl::platform::windows
