// Every pixel source gives the same, correct pixels: full screen, odd and
// unaligned regions, windows that change size, and after a RandR shrink.
#include <gtest/gtest.h>

#include <cstdlib>

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

using CaptureSources = PixelSourceTest;

TEST_P(CaptureSources, FullScreenMatchesWhatWasDrawn) {
  painter_->paint_pattern({0, 0, 1024, 768});
  auto cap = make(options());
  FramePool pool(1);
  auto r = capture_until_ok(*cap, pool);
  ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  ASSERT_EQ(r.frame->size(), (Size{1024, 768}));
  EXPECT_EQ(first_mismatch(*r.frame, pattern_at), "");
  EXPECT_EQ(r.frame->seq, 1u);
  EXPECT_EQ(cap->fallbacks(), 0);
}

TEST_P(CaptureSources, UnalignedAndOddRegionsCropExactly) {
  painter_->paint_pattern({0, 0, 1024, 768});
  const Rect regions[] = {{1, 1, 1, 1},       {3, 5, 17, 9},      {13, 7, 333, 191},
                          {1000, 700, 24, 68}, {0, 767, 1024, 1}, {511, 0, 1, 768}};
  for (const Rect& region : regions) {
    SCOPED_TRACE(to_string(region));
    auto o = options();
    o.target = X11CaptureOptions::Target::kRegion;
    o.region = region;
    auto cap = make(std::move(o));
    FramePool pool(1);
    auto r = capture_until_ok(*cap, pool);
    ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
    ASSERT_EQ(r.frame->size(), region.size());
    EXPECT_EQ(first_mismatch(*r.frame, [&](int x, int y) { return pattern_at(x + region.x, y + region.y); }), "");
  }
}

TEST_P(CaptureSources, SourcesAgreeWithGetImage) {
  painter_->paint_pattern({0, 0, 1024, 768});
  painter_->fill(painter_->root(), {100, 100, 50, 50}, 0x123456);
  auto reference_opts = options();
  reference_opts.allow_shm = false;
  X11Capturer reference(reference_opts);
  auto cap = make(options());
  FramePool a(1), b(1);
  auto ra = capture_until_ok(reference, a);
  auto rb = capture_until_ok(*cap, b);
  ASSERT_EQ(ra.status, CaptureStatus::kOk) << ra.error;
  ASSERT_EQ(rb.status, CaptureStatus::kOk) << rb.error;
  EXPECT_EQ(first_mismatch(*rb.frame, [&](int x, int y) { return ra.frame->pixel(x, y); }), "");
}

TEST_P(CaptureSources, PointerIsNotInThePicture) {
  // Viewers draw the cursor themselves; the software cursor Xvfb paints
  // must not reach the frame, wherever the pointer is.
  painter_->paint_pattern({0, 0, 1024, 768});
  auto cap = make(options());
  FramePool pool(1);
  for (const auto& [x, y] : {std::pair{100, 100}, std::pair{512, 384}, std::pair{1000, 700}}) {
    xcb_warp_pointer(painter_->conn(), XCB_NONE, painter_->root(), 0, 0, 0, 0, int16_t(x), int16_t(y));
    painter_->sync();
    cap->invalidate_all();
    auto r = capture_until_ok(*cap, pool);
    ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
    EXPECT_EQ(first_mismatch(*r.frame, pattern_at), "") << "pointer at " << x << "," << y;
  }
}

TEST_P(CaptureSources, DamageFollowsDrawingIntoReusedBuffers) {
  // Two buffers in rotation: each frame must still show everything drawn so
  // far, whichever buffer it lands in.
  painter_->fill(painter_->root(), {0, 0, 1024, 768}, 0x000000);
  auto cap = make(options());
  FramePool pool(2);
  ASSERT_EQ(capture_until_ok(*cap, pool).status, CaptureStatus::kOk);
  std::vector<std::pair<Rect, uint32_t>> drawn;
  for (int i = 0; i < 6; ++i) {
    const Rect r{37 * i + 5, 23 * i + 3, 40 + i, 30 + 2 * i};
    const uint32_t colour = 0x102030u * uint32_t(i + 1);
    painter_->fill(painter_->root(), r, colour);
    drawn.emplace_back(r, colour);
    auto res = capture_until_ok(*cap, pool);
    ASSERT_EQ(res.status, CaptureStatus::kOk) << res.error;
    EXPECT_EQ(first_mismatch(*res.frame, [&](int x, int y) {
                uint32_t v = 0;
                for (const auto& [rect, c] : drawn)
                  if (rect.contains({x, y, 1, 1})) v = c;
                return v;
              }),
              "")
        << "after drawing rectangle " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(X11, CaptureSources,
                         every_source(),
                         source_name);

// Windows are read with GetImage or ShmGetImage (the framebuffer shows the
// screen, not one window).
class WindowCapture : public CaptureSources {};

TEST_P(WindowCapture, FollowsTheWindowAsItGrowsAndShrinks) {
  const xcb_window_t w = painter_->create_window({50, 40, 300, 200}, 0x00aa33);
  auto o = options();
  o.target = X11CaptureOptions::Target::kWindow;
  o.window = w;
  auto cap = make(std::move(o));
  FramePool pool(2);
  const Size sizes[] = {{300, 200}, {640, 480}, {121, 91}, {800, 600}, {17, 3}};
  for (const Size s : sizes) {
    SCOPED_TRACE(std::to_string(s.width) + "x" + std::to_string(s.height));
    if (s != Size{300, 200}) painter_->resize_window(w, s);
    // The resize arrives as an event; wait for a frame of the new size.
    capture::CaptureResult r;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    do {
      r = capture_until_ok(*cap, pool);
      ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
    } while (r.frame->size() != s && std::chrono::steady_clock::now() < deadline);
    ASSERT_EQ(r.frame->size(), s);
    EXPECT_EQ(first_mismatch(*r.frame, [](int, int) { return 0x00aa33u; }), "");
    EXPECT_EQ(cap->source_kind(), expected_kind(GetParam()));
  }
  EXPECT_EQ(cap->fallbacks(), 0);
}

TEST_P(WindowCapture, DestroyedWindowEndsTheCapture) {
  const xcb_window_t w = painter_->create_window({10, 10, 64, 64}, 0xffffff);
  auto o = options();
  o.target = X11CaptureOptions::Target::kWindow;
  o.window = w;
  auto cap = make(std::move(o));
  FramePool pool(1);
  ASSERT_EQ(capture_until_ok(*cap, pool).status, CaptureStatus::kOk);
  painter_->destroy_window(w);
  EXPECT_EQ(capture_until_ok(*cap, pool).status, CaptureStatus::kPermanent);
}

INSTANTIATE_TEST_SUITE_P(X11, WindowCapture,
                         ::testing::Values(Source::kGetImage, Source::kShmMemfd, Source::kShmSysV),
                         source_name);

}  // namespace
}  // namespace voxl::testing
