// Which source the capturer picks at start-up, and how it falls back at
// run time.
#include <gtest/gtest.h>

#include <sys/ipc.h>
#include <sys/shm.h>

#include <cstdlib>

#include <xcb/shm.h>

#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using capture::CaptureStatus;
using capture::FramePool;
using platform::x11::SourceKind;
using platform::x11::VirtualDisplay;
using platform::x11::VirtualDisplayOptions;
using platform::x11::X11CaptureOptions;
using platform::x11::X11Capturer;

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

VirtualDisplayOptions small_display() {
  VirtualDisplayOptions vo;
  vo.size = {640, 480};
  return vo;
}

TEST(SourceChoice, PrefersTheXvfbFramebufferWhenAvailable) {
  VirtualDisplay xvfb(small_display());
  auto log = make_captured_log();
  // Found through the server's process id, without being told the segment.
  X11Capturer cap({.display = xvfb.name(), .log = log.log});
  EXPECT_EQ(cap.source_kind(), SourceKind::kFramebuffer) << cap.describe();
  bool logged = false;
  for (const auto& m : log.messages()) logged |= mentions(m, "framebuffer");
  EXPECT_TRUE(logged) << "the choice is logged";
}

TEST(SourceChoice, UsesShmWithoutAFramebuffer) {
  auto vo = small_display();
  vo.shmem_framebuffer = false;
  VirtualDisplay xvfb(vo);
  auto log = make_captured_log();
  X11Capturer cap({.display = xvfb.name(), .log = log.log});
  EXPECT_EQ(cap.source_kind(), SourceKind::kShm) << cap.describe();
  EXPECT_TRUE(mentions(cap.describe(), "memfd")) << "MIT-SHM 1.2 on a local socket uses memfd";
}

TEST(SourceChoice, EnvironmentSwitchTurnsShmOff) {
  VirtualDisplay xvfb(small_display());
  for (const char* value : {"1", "true", "YES", "on"}) {
    ScopedEnv env("VOXL_X11_DISABLE_SHM", value);
    auto log = make_captured_log();
    X11Capturer cap({.display = xvfb.name(), .log = log.log});
    EXPECT_EQ(cap.source_kind(), SourceKind::kGetImage) << value;
    EXPECT_TRUE(mentions(cap.source_reason(), "VOXL_X11_DISABLE_SHM")) << cap.source_reason();
    FramePool pool(1);
    EXPECT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  }
  ScopedEnv off("VOXL_X11_DISABLE_SHM", "0");
  auto log = make_captured_log();
  X11Capturer cap({.display = xvfb.name(), .log = log.log});
  EXPECT_NE(cap.source_kind(), SourceKind::kGetImage);
}

TEST(SourceChoice, ServerWithoutMitShmFallsBackToGetImage) {
  auto vo = small_display();
  vo.mit_shm = false;
  VirtualDisplay xvfb(vo);
  Painter painter(xvfb.name());
  painter.paint_pattern({0, 0, 640, 480});
  auto log = make_captured_log();
  X11Capturer cap({.display = xvfb.name(), .log = log.log});
  EXPECT_EQ(cap.source_kind(), SourceKind::kGetImage);
  EXPECT_TRUE(mentions(cap.source_reason(), "no MIT-SHM")) << cap.source_reason();
  FramePool pool(1);
  auto r = capture_until_ok(cap, pool);
  ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  EXPECT_EQ(first_mismatch(*r.frame, pattern_at), "");
}

TEST(SourceChoice, TcpDisplayFallsBackToGetImage) {
  auto vo = small_display();
  vo.listen_tcp = true;
  VirtualDisplay xvfb(vo);
  Painter painter(xvfb.name());
  painter.paint_pattern({0, 0, 640, 480});
  auto log = make_captured_log();
  X11Capturer cap({.display = xvfb.tcp_name(), .log = log.log});
  EXPECT_EQ(cap.source_kind(), SourceKind::kGetImage) << cap.describe();
  EXPECT_TRUE(mentions(cap.source_reason(), "attach")) << cap.source_reason();
  FramePool pool(1);
  auto r = capture_until_ok(cap, pool);
  ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  EXPECT_EQ(first_mismatch(*r.frame, pattern_at), "");
  EXPECT_EQ(sysv_segments_of_this_process(), 0);
}

TEST(SourceChoice, ForeignSegmentIsNotTakenForAFramebuffer) {
  VirtualDisplay xvfb(small_display());
  // A segment that is not an XWD framebuffer: the capturer must refuse it
  // and use ShmGetImage instead.
  const int junk = shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0600);
  ASSERT_GE(junk, 0);
  auto log = make_captured_log();
  {
    X11Capturer cap({.display = xvfb.name(), .framebuffer_shmid = junk, .log = log.log});
    EXPECT_EQ(cap.source_kind(), SourceKind::kShm) << cap.describe();
  }
  shmctl(junk, IPC_RMID, nullptr);
  bool explained = false;
  for (const auto& m : log.messages()) explained |= mentions(m, "not an Xvfb framebuffer");
  EXPECT_TRUE(explained);
}

TEST(RuntimeFallback, BrokenShmSwitchesToGetImageWithOneWarning) {
  auto vo = small_display();
  vo.shmem_framebuffer = false;
  VirtualDisplay xvfb(vo);
  Painter painter(xvfb.name());
  painter.paint_pattern({0, 0, 640, 480});
  auto log = make_captured_log();
  X11Capturer cap({.display = xvfb.name(), .log = log.log});
  ASSERT_TRUE(cap.uses_shm());
  FramePool pool(1);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  const int warnings_before = log.count(spdlog::level::warn);

  // Another client detaches our segment on the server: the next ShmGetImage
  // fails with BadShmSeg while GetImage still works.
  xcb_shm_detach(painter.conn(), cap.shm_segment_id());
  painter.sync();

  for (int i = 0; i < 50; ++i) {
    cap.invalidate_all();
    auto r = cap.capture(pool, std::chrono::milliseconds(0));
    ASSERT_EQ(r.status, CaptureStatus::kOk) << "frame " << i << ": " << r.error;
    EXPECT_EQ(first_mismatch(*r.frame, pattern_at), "") << "frame " << i;
    EXPECT_EQ(cap.source_kind(), SourceKind::kGetImage);
  }
  EXPECT_EQ(cap.fallbacks(), 1);
  EXPECT_EQ(log.count(spdlog::level::warn) - warnings_before, 1);
}

TEST(RuntimeFallback, WhenGetImageFailsTooShmStays) {
  auto vo = small_display();
  vo.shmem_framebuffer = false;
  VirtualDisplay xvfb(vo);
  Painter painter(xvfb.name());
  const xcb_window_t w = painter.create_window({20, 20, 100, 80}, 0x445566);
  auto log = make_captured_log();
  X11Capturer cap({.display = xvfb.name(),
                   .target = X11CaptureOptions::Target::kWindow,
                   .window = w,
                   .log = log.log});
  ASSERT_TRUE(cap.uses_shm());
  FramePool pool(1);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
  // An unmapped window cannot be read by either request: the error is the
  // window's, not SHM's.
  painter.unmap_window(w);
  cap.invalidate_all();
  auto r = cap.capture(pool, std::chrono::milliseconds(0));
  EXPECT_EQ(r.status, CaptureStatus::kTemporary);
  EXPECT_FALSE(r.error.empty());
  EXPECT_TRUE(cap.uses_shm());
  EXPECT_EQ(cap.fallbacks(), 0);
  EXPECT_EQ(log.count(spdlog::level::warn), 0);
}

}  // namespace
}  // namespace voxl::testing
