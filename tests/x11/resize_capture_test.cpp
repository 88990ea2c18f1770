// Capture follows the desktop as the RandR resizer shrinks and grows it:
// with every pixel source, the frames after each resize have the new size
// and exactly the pixels drawn, and the source stays the one chosen at
// start (the Xvfb framebuffer keeps its start-size stride throughout).
#include <gtest/gtest.h>

#include "platform/x11/randr_resizer.h"
#include "platform/x11/shm_segment.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "pixel_source_param.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using capture::CaptureStatus;
using capture::FramePool;
using platform::x11::SourceKind;
using platform::x11::X11CaptureOptions;
using platform::x11::X11Capturer;

using ResizeCapture = PixelSourceTest;

TEST_P(ResizeCapture, FramesArePixelExactAfterShrinkingAndGrowing) {
  X11Capturer cap(options());
  const SourceKind kind = cap.source_kind();
  FramePool pool(3);
  ASSERT_EQ(capture_until_ok(cap, pool).status, CaptureStatus::kOk);

  std::string why;
  auto resizer = platform::x11::RandrResizer::open(xvfb_->name(), log_.log, why);
  ASSERT_TRUE(resizer) << why;

  // Shrink, grow back to the largest, shrink, wider-but-shorter, grow.
  const Size steps[] = {{640, 480}, {1024, 768}, {800, 600}, {1000, 400}, {1024, 768}, {320, 240}, {960, 720}};
  int step = 0;
  for (const Size size : steps) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    ++step;
    std::string error;
    ASSERT_TRUE(resizer->resize(size, error)) << error;
    // A pattern of its own per step: a frame left over from before shows.
    auto expected = [step](int x, int y) { return pattern_at(x + step * 7, y + step); };
    painter_->paint(Rect::from_size(size), expected);

    capture::CaptureResult r;
    std::string mismatch = "no frame yet";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      r = capture_until_ok(cap, pool);
      ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
      mismatch = r.frame->size() == size ? first_mismatch(*r.frame, expected) : "wrong size";
      if (mismatch.empty()) break;
    }
    EXPECT_EQ(r.frame->size(), size);
    EXPECT_EQ(cap.size(), size);
    EXPECT_EQ(mismatch, "");
    EXPECT_EQ(cap.source_kind(), kind) << cap.describe();
  }
  EXPECT_EQ(cap.fallbacks(), 0) << cap.source_reason();
}

INSTANTIATE_TEST_SUITE_P(X11, ResizeCapture,
                         every_source(),
                         source_name);

}  // namespace
}  // namespace voxl::testing
