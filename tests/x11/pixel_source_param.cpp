#include "pixel_source_param.h"

#include "platform/x11/shm_segment.h"

namespace voxl::testing {

using platform::x11::SourceKind;
using platform::x11::X11CaptureOptions;

std::string source_name(const ::testing::TestParamInfo<Source>& info) {
  switch (info.param) {
    case Source::kGetImage: return "GetImage";
    case Source::kShmMemfd: return "ShmMemfd";
    case Source::kShmSysV: return "ShmSysV";
    case Source::kFramebuffer: return "XvfbFramebuffer";
  }
  return "unknown";
}

void PrintTo(Source s, std::ostream* os) { *os << source_name(::testing::TestParamInfo<Source>(s, 0)); }

SourceKind expected_kind(Source s) {
  switch (s) {
    case Source::kGetImage: return SourceKind::kGetImage;
    case Source::kFramebuffer: return SourceKind::kFramebuffer;
    default: return SourceKind::kShm;
  }
}

X11CaptureOptions capture_options(Source s, const platform::x11::VirtualDisplay& xvfb, const Logger& log) {
  X11CaptureOptions o;
  o.display = xvfb.name();
  o.log = log;
  switch (s) {
    case Source::kGetImage: o.allow_shm = false; break;
    case Source::kShmMemfd:
      o.allow_framebuffer = false;
      o.shm_kind = platform::x11::ShmKind::kMemfd;
      break;
    case Source::kShmSysV:
      o.allow_framebuffer = false;
      o.shm_kind = platform::x11::ShmKind::kSysV;
      break;
    case Source::kFramebuffer: o.framebuffer_shmid = xvfb.framebuffer_shmid(); break;
  }
  return o;
}

void PixelSourceTest::SetUp() {
  platform::x11::VirtualDisplayOptions vo;
  vo.size = {1024, 768};
  xvfb_ = std::make_unique<platform::x11::VirtualDisplay>(vo);
  painter_ = std::make_unique<Painter>(xvfb_->name());
}

std::unique_ptr<platform::x11::X11Capturer> PixelSourceTest::make(X11CaptureOptions o) {
  auto cap = std::make_unique<platform::x11::X11Capturer>(std::move(o));
  EXPECT_EQ(cap->source_kind(), expected_kind(GetParam())) << cap->describe();
  return cap;
}

}  // namespace voxl::testing
