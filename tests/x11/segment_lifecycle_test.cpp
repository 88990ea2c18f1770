// Shared memory never outlives its user: segments are released on every
// path, over many cycles and a long run, and the private Xvfb takes its
// framebuffer segment with it.
#include <gtest/gtest.h>

#include <signal.h>

#include "platform/x11/sysv_shm_table.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using capture::CaptureStatus;
using capture::FramePool;
using platform::x11::ShmKind;
using platform::x11::VirtualDisplay;
using platform::x11::VirtualDisplayOptions;
using platform::x11::X11CaptureOptions;
using platform::x11::X11Capturer;

VirtualDisplayOptions no_framebuffer() {
  VirtualDisplayOptions vo;
  vo.size = {640, 480};
  vo.shmem_framebuffer = false;
  return vo;
}

X11CaptureOptions shm_options(const VirtualDisplay& xvfb, ShmKind kind, const Logger& log) {
  X11CaptureOptions o;
  o.display = xvfb.name();
  o.shm_kind = kind;
  o.allow_framebuffer = false;
  o.log = log;
  return o;
}

TEST(SegmentLifecycle, NoSysvSegmentLeaksOverFortyCycles) {
  VirtualDisplay xvfb(no_framebuffer());
  auto log = make_captured_log();
  ASSERT_EQ(sysv_segments_of_this_process(), 0);
  for (int i = 0; i < 40; ++i) {
    {
      X11Capturer cap(shm_options(xvfb, ShmKind::kSysV, log.log));
      ASSERT_TRUE(cap.uses_shm()) << cap.describe();
      FramePool pool(1);
      ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
      EXPECT_LE(sysv_segments_of_this_process(), 1);
    }
    ASSERT_EQ(sysv_segments_of_this_process(), 0) << "cycle " << i;
  }
}

TEST(SegmentLifecycle, NoMemfdSegmentLeaksOverFortyCycles) {
  VirtualDisplay xvfb(no_framebuffer());
  auto log = make_captured_log();
  const int fds = open_fd_count();
  for (int i = 0; i < 40; ++i) {
    {
      X11Capturer cap(shm_options(xvfb, ShmKind::kMemfd, log.log));
      ASSERT_TRUE(cap.uses_shm()) << cap.describe();
      FramePool pool(1);
      ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);
      EXPECT_EQ(capture_memfd_mappings(), 1);
    }
    ASSERT_EQ(capture_memfd_mappings(), 0) << "cycle " << i;
    ASSERT_EQ(open_fd_count(), fds) << "cycle " << i;
  }
  EXPECT_EQ(sysv_segments_of_this_process(), 0);
}

TEST(SegmentLifecycle, WindowResizesReallocateWithoutLeaking) {
  VirtualDisplay xvfb(no_framebuffer());
  Painter painter(xvfb.name());
  const xcb_window_t w = painter.create_window({0, 0, 100, 100}, 0x808080);
  auto log = make_captured_log();
  auto o = shm_options(xvfb, ShmKind::kSysV, log.log);
  o.target = X11CaptureOptions::Target::kWindow;
  o.window = w;
  {
    X11Capturer cap(o);
    FramePool pool(1);
    for (int i = 0; i < 20; ++i) {
      const Size s{100 + 13 * i, 100 + 7 * (i % 5)};
      painter.resize_window(w, s);
      capture::CaptureResult r;
      do {
        r = capture_until_ok(cap, pool);
        ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
      } while (r.frame->size() != s);
      EXPECT_TRUE(cap.uses_shm());
      EXPECT_LE(sysv_segments_of_this_process(), 1);
    }
  }
  EXPECT_EQ(sysv_segments_of_this_process(), 0);
}

TEST(SegmentLifecycle, SoakOfOneHundredThousandFramesLeavesNothingBehind) {
  VirtualDisplay xvfb(no_framebuffer());
  auto log = make_captured_log();
  {
    auto o = shm_options(xvfb, ShmKind::kSysV, log.log);
    o.target = X11CaptureOptions::Target::kRegion;
    o.region = {16, 16, 64, 64};
    X11Capturer cap(o);
    ASSERT_TRUE(cap.uses_shm());
    FramePool pool(1);
    for (int i = 0; i < 100000; ++i) {
      cap.invalidate({0, 0, 64, 64});
      const auto r = cap.capture(pool, std::chrono::milliseconds(0));
      ASSERT_EQ(r.status, CaptureStatus::kOk) << "frame " << i << ": " << r.error;
      ASSERT_EQ(r.frame->seq, uint64_t(i) + 1);
    }
    EXPECT_EQ(cap.fallbacks(), 0);
    EXPECT_EQ(sysv_segments_of_this_process(), 1);
  }
  EXPECT_EQ(sysv_segments_of_this_process(), 0);
}

TEST(SegmentLifecycle, VirtualDisplayRemovesItsFramebufferAndStops) {
  int shmid = -1;
  pid_t pid = 0;
  {
    VirtualDisplay xvfb;
    ASSERT_TRUE(xvfb.framebuffer_shmid().has_value()) << xvfb.output();
    shmid = *xvfb.framebuffer_shmid();
    pid = xvfb.pid();
    bool listed = false;
    for (const auto& s : platform::x11::read_sysv_shm_table()) listed |= s.shmid == shmid;
    EXPECT_TRUE(listed);
  }
  for (const auto& s : platform::x11::read_sysv_shm_table()) EXPECT_NE(s.shmid, shmid);
  EXPECT_NE(kill(pid, 0), 0) << "the server process is gone";
}

TEST(SegmentLifecycle, XvfbThatCannotStartSaysWhy) {
  VirtualDisplayOptions vo;
  vo.extra_args = {"-no-such-option"};
  try {
    VirtualDisplay xvfb(vo);
    FAIL() << "started despite a bad option";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("did not start"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace voxl::testing
