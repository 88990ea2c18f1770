// The capturer's own descriptors (its wake eventfd beside the X
// connection) are released on every path, a constructor that fails late
// included, and a wake() reaches the next wait.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

#include <spdlog/sinks/base_sink.h>

#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using platform::x11::VirtualDisplay;
using platform::x11::VirtualDisplayOptions;
using platform::x11::X11CaptureOptions;
using platform::x11::X11Capturer;

// Refuses the capturer's closing "X11 ..." line, the last thing its
// constructor does: the constructor then fails after it has made every
// descriptor it owns.
class RefusingSink final : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    const std::string_view text(msg.payload.data(), msg.payload.size());
    if (msg.level == spdlog::level::info && text.starts_with("X11 ")) throw std::runtime_error("refused");
  }
  void flush_() override {}
};

Logger refusing_logger() {
  auto log = std::make_shared<spdlog::logger>("refusing", std::make_shared<RefusingSink>());
  // spdlog reports a sink's exception to this handler and carries on;
  // rethrowing makes the log call, and so the constructor, fail.
  log->set_error_handler([](const std::string& what) { throw std::runtime_error(what); });
  log->set_level(spdlog::level::trace);
  return log;
}

VirtualDisplayOptions small_display() {
  VirtualDisplayOptions vo;
  vo.size = {320, 240};
  return vo;
}

TEST(CapturerDescriptors, AConstructorThatFailsLateClosesEveryDescriptor) {
  VirtualDisplay xvfb(small_display());
  const int fds = open_fd_count();
  for (bool shm : {false, true}) {
    SCOPED_TRACE(shm ? "MIT-SHM" : "GetImage");
    EXPECT_THROW(X11Capturer({.display = xvfb.name(), .allow_shm = shm, .allow_framebuffer = false,
                              .log = refusing_logger()}),
                 std::runtime_error);
    EXPECT_EQ(open_fd_count(), fds);
  }
}

TEST(CapturerDescriptors, CapturersComeAndGoWithoutLeavingDescriptors) {
  VirtualDisplay xvfb(small_display());
  auto log = make_captured_log();
  const int fds = open_fd_count();
  for (int i = 0; i < 10; ++i) {
    {
      X11Capturer cap({.display = xvfb.name(), .log = log.log});
      cap.wake();
    }
    ASSERT_EQ(open_fd_count(), fds) << "cycle " << i;
  }
}

TEST(CapturerDescriptors, WakeEndsAWaitForChange) {
  VirtualDisplay xvfb(small_display());
  auto log = make_captured_log();
  X11Capturer cap({.display = xvfb.name(), .log = log.log});
  capture::FramePool pool(1);
  ASSERT_EQ(capture_until_ok(cap, pool).status, capture::CaptureStatus::kOk);  // the first, whole frame
  // A wake before the wait counts too: it is not lost.
  cap.wake();
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(cap.wait_for_change(std::chrono::minutes(2)));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::minutes(1)) << "woken, not timed out";
}

}  // namespace
}  // namespace voxl::testing
