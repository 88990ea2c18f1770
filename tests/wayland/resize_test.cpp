// Dynamic resolution on headless sway through wlr-output-management: the
// output takes the size asked for, the capturer follows it with the
// program's exact pixels at the new size, sizes past the largest are
// refused, and the first size comes back with restore() and at the end.
#include <gtest/gtest.h>

#include "platform/wayland/output_resizer.h"
#include "platform/wayland/screencopy_capturer.h"
#include "wayland_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using platform::wayland::OutputResizer;
using platform::wayland::ScreencopyCapturer;

// Captures until a frame of `size` shows `colour` everywhere; empty, or
// what the last frame was.
std::string frame_becomes(ScreencopyCapturer& cap, capture::FramePool& pool, Size size, uint32_t colour) {
  std::string last = "no frame";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    cap.invalidate_all();
    auto r = cap.capture(pool, std::chrono::milliseconds(500));
    if (r.status != capture::CaptureStatus::kOk) continue;
    const capture::Frame& f = *r.frame;
    last = std::to_string(f.size().width) + "x" + std::to_string(f.size().height);
    if (f.size() != size) continue;
    bool all = true;
    for (int y = 0; y < size.height && all; ++y)
      for (int x = 0; x < size.width && all; ++x) all = f.pixel(x, y) == colour;
    if (all) return {};
    last += ", not all " + std::to_string(colour);
  }
  return last;
}

TEST(WaylandResize, TheOutputTakesTheSizeAndTheCaptureFollows) {
  auto sway = start_sway({320, 240});
  ProbeProgram probe(*sway, 0x2060a0);
  ScreencopyCapturer cap(sway->socket_path(), quiet_log());
  capture::FramePool pool(2);
  EXPECT_EQ(frame_becomes(cap, pool, {320, 240}, 0x2060a0), "");

  std::string why;
  auto resizer = OutputResizer::open(sway->socket_path(), quiet_log(), why);
  ASSERT_TRUE(resizer) << why;
  EXPECT_EQ(resizer->current_size(), (Size{320, 240}));
  std::string error;
  ASSERT_TRUE(resizer->resize({640, 360}, error)) << error;
  EXPECT_EQ(resizer->current_size(), (Size{640, 360}));
  EXPECT_EQ(probe.next_line("resized"), "resized 640x360");
  EXPECT_EQ(frame_becomes(cap, pool, {640, 360}, 0x2060a0), "");
  EXPECT_EQ(cap.size(), (Size{640, 360}));

  EXPECT_FALSE(resizer->resize({8000, 8000}, error));
  EXPECT_NE(error.find("at most"), std::string::npos) << error;

  resizer->restore();
  EXPECT_EQ(resizer->current_size(), (Size{320, 240}));
  EXPECT_EQ(frame_becomes(cap, pool, {320, 240}, 0x2060a0), "");

  // At the end, too.
  ASSERT_TRUE(resizer->resize({400, 300}, error)) << error;
  resizer.reset();
  auto again = OutputResizer::open(sway->socket_path(), quiet_log(), why);
  ASSERT_TRUE(again) << why;
  EXPECT_EQ(again->current_size(), (Size{320, 240}));
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
