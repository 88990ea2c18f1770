// ShmGetImage into the pool's own buffers: the frames are the shared
// segments. Pixels stay right when damage is partial and buffers are reused
// (bands in place, narrow rectangles through staging), for memfd and SysV;
// no segment survives its users; and a frame may outlive its capturer and
// be released on another thread.
#include <gtest/gtest.h>

#include <thread>

#include "platform/x11/shm_segment.h"
#include "platform/x11/sysv_shm_table.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using capture::CaptureStatus;
using capture::FramePool;
using capture::FrameRef;
using platform::x11::ShmKind;
using platform::x11::VirtualDisplay;
using platform::x11::VirtualDisplayOptions;
using platform::x11::X11CaptureOptions;
using platform::x11::X11Capturer;

constexpr Size kScreen{640, 480};

// Segments of `kind` this process holds: SysV ids it created, or mapped
// capture memfds.
int segments(ShmKind kind) {
  return kind == ShmKind::kSysV ? sysv_segments_of_this_process() : capture_memfd_mappings();
}

class ShmFrameBuffers : public ::testing::TestWithParam<ShmKind> {
 protected:
  void SetUp() override {
    VirtualDisplayOptions vo;
    vo.size = kScreen;
    vo.shmem_framebuffer = false;
    xvfb_ = std::make_unique<VirtualDisplay>(vo);
    painter_ = std::make_unique<Painter>(xvfb_->name());
    ASSERT_EQ(segments(GetParam()), 0);
  }

  std::unique_ptr<X11Capturer> make() {
    X11CaptureOptions o;
    o.display = xvfb_->name();
    o.shm_kind = GetParam();
    o.allow_framebuffer = false;
    o.log = log_.log;
    auto cap = std::make_unique<X11Capturer>(std::move(o));
    EXPECT_TRUE(cap->uses_shm()) << cap->describe();
    return cap;
  }

  // Captures until a frame shows `expected` everywhere (damage may arrive
  // in more than one frame); the last mismatch otherwise.
  template <class Expected>
  std::string capture_until_picture(X11Capturer& cap, FramePool& pool, Expected expected) {
    std::string last = "no frame";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      auto r = cap.capture(pool, std::chrono::milliseconds(200));
      if (r.status == CaptureStatus::kNoChange) continue;
      if (r.status != CaptureStatus::kOk) return r.error;
      last = first_mismatch(*r.frame, expected);
      if (last.empty()) return {};
    }
    return last;
  }

  CapturedLog log_ = make_captured_log();
  std::unique_ptr<VirtualDisplay> xvfb_;
  std::unique_ptr<Painter> painter_;
};

std::string kind_name(const ::testing::TestParamInfo<ShmKind>& info) {
  return info.param == ShmKind::kMemfd ? "Memfd" : "SysV";
}

// The picture after `round` rounds of painting: the pattern under a wide
// bar (banded), a narrow box (staged), a tall thin column and a box at the
// far corner, each moving and changing colour with the round.
uint32_t picture(int round, int x, int y) {
  for (int k = round; k >= 1; --k) {
    const uint32_t c = 0x102030u * uint32_t(k) ^ 0x5a5a5au;
    const int s = 7 * k;
    // Last painted on top.
    if (Rect{630 - k, 470 - k, 9, 9}.contains(Rect{x, y, 1, 1})) return c ^ 0x0000ffu;
    if (Rect{500 - s, 10, 3, 400}.contains(Rect{x, y, 1, 1})) return c ^ 0xff0000u;
    if (Rect{200 + s, 300, 37, 29}.contains(Rect{x, y, 1, 1})) return c ^ 0x00ff00u;
    if (Rect{3, 40 + s, 600, 21}.contains(Rect{x, y, 1, 1})) return c;
  }
  return pattern_at(x, y);
}

void paint_round(Painter& p, int k) {
  const uint32_t c = 0x102030u * uint32_t(k) ^ 0x5a5a5au;
  const int s = 7 * k;
  p.fill(p.root(), {3, 40 + s, 600, 21}, c);
  p.fill(p.root(), {200 + s, 300, 37, 29}, c ^ 0x00ff00u);
  p.fill(p.root(), {500 - s, 10, 3, 400}, c ^ 0xff0000u);
  p.fill(p.root(), {630 - k, 470 - k, 9, 9}, c ^ 0x0000ffu);
}

TEST_P(ShmFrameBuffers, PartialDamageOnReusedBuffersKeepsEveryPixel) {
  painter_->paint_pattern(Rect::from_size(kScreen));
  auto cap = make();
  FramePool pool(2);
  ASSERT_EQ(capture_until_picture(*cap, pool, [](int x, int y) { return picture(0, x, y); }), "");
  for (int k = 1; k <= 12; ++k) {
    SCOPED_TRACE("round " + std::to_string(k));
    paint_round(*painter_, k);
    ASSERT_EQ(capture_until_picture(*cap, pool, [k](int x, int y) { return picture(k, x, y); }), "");
  }
  EXPECT_EQ(cap->fallbacks(), 0);
  EXPECT_TRUE(cap->uses_shm());
  EXPECT_LE(segments(GetParam()), 2) << "one segment per pool buffer, no other";
}

TEST_P(ShmFrameBuffers, FramesAreTheSegmentsTheServerWrote) {
  painter_->paint_pattern(Rect::from_size(kScreen));
  auto cap = make();
  FramePool pool(1);
  auto r = capture_until_ok(*cap, pool);
  ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
  EXPECT_EQ(r.frame->stride(), kScreen.width * 4) << "rows packed as ShmGetImage writes them";
  EXPECT_NE(r.frame->buffer(), nullptr);
  EXPECT_NE(cap->shm_segment_id(), 0u);
  EXPECT_EQ(segments(GetParam()), 1);
}

TEST_P(ShmFrameBuffers, NoSegmentLeftAfterPoolAndCapturerGoInEitherOrder) {
  for (int i = 0; i < 10; ++i) {
    {
      auto cap = make();
      FramePool pool(2);
      ASSERT_EQ(capture_until_ok(*cap, pool).status, CaptureStatus::kOk);
      cap->invalidate({0, 0, 64, 64});
      ASSERT_EQ(capture_until_ok(*cap, pool).status, CaptureStatus::kOk);
      if (i % 2) cap.reset();  // else the pool goes first
    }
    ASSERT_EQ(segments(GetParam()), 0) << "cycle " << i;
  }
}

TEST_P(ShmFrameBuffers, FrameOutlivesItsCapturerAndIsReleasedOnAnotherThread) {
  painter_->paint_pattern(Rect::from_size(kScreen));
  FrameRef held;
  {
    FramePool pool(2);
    {
      auto cap = make();
      auto r = capture_until_ok(*cap, pool);
      ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
      held = std::move(r.frame);
    }
    // The capturer and its connection are gone; the frame is still readable.
    EXPECT_EQ(first_mismatch(*held, pattern_at), "");
  }
  EXPECT_EQ(segments(GetParam()), 1) << "the held frame keeps its memory";
  std::thread([f = std::move(held)]() mutable { f.reset(); }).join();
  EXPECT_EQ(segments(GetParam()), 0);
}

TEST_P(ShmFrameBuffers, ARebuiltCapturerReplacesThePoolsOldSegments) {
  painter_->paint_pattern(Rect::from_size(kScreen));
  FramePool pool(1);
  for (int i = 0; i < 5; ++i) {
    auto cap = make();
    painter_->fill(painter_->root(), {10 * i, 10, 5, 5}, 0x00ff00u + uint32_t(i));
    auto r = capture_until_ok(*cap, pool);
    ASSERT_EQ(r.status, CaptureStatus::kOk) << r.error;
    EXPECT_EQ(r.frame->pixel(10 * i, 10), 0x00ff00u + uint32_t(i));
    EXPECT_EQ(r.frame->pixel(kScreen.width - 1, kScreen.height - 1),
              pattern_at(kScreen.width - 1, kScreen.height - 1));
    EXPECT_EQ(segments(GetParam()), 1) << "rebuild " << i;
  }
  EXPECT_EQ(segments(GetParam()), 1) << "the pool still holds the last one";
}

INSTANTIATE_TEST_SUITE_P(Kinds, ShmFrameBuffers, ::testing::Values(ShmKind::kMemfd, ShmKind::kSysV),
                         kind_name);

}  // namespace
}  // namespace voxl::testing
