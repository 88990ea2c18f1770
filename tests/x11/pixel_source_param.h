// The four X11 pixel sources as a gtest parameter, for tests that check
// each gives the same pixels: their names, the kind the capturer reports,
// the capture options that force each one on a private Xvfb, and a fixture
// with that Xvfb (1024x768) and a Painter on it.
// The test's thread.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "base/logging.h"
#include "platform/x11/pixel_source.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "x11_test_support.h"

namespace voxl::testing {

enum class Source { kGetImage, kShmMemfd, kShmSysV, kFramebuffer };

std::string source_name(const ::testing::TestParamInfo<Source>& info);
void PrintTo(Source s, std::ostream* os);
platform::x11::SourceKind expected_kind(Source s);
// Options capturing the whole screen of `xvfb` with source `s` only.
platform::x11::X11CaptureOptions capture_options(Source s, const platform::x11::VirtualDisplay& xvfb,
                                                 const Logger& log);

class PixelSourceTest : public ::testing::TestWithParam<Source> {
 protected:
  void SetUp() override;
  platform::x11::X11CaptureOptions options() { return capture_options(GetParam(), *xvfb_, log_.log); }
  // A capturer from `o`, checked to use the parameter's source.
  std::unique_ptr<platform::x11::X11Capturer> make(platform::x11::X11CaptureOptions o);

  CapturedLog log_ = make_captured_log();
  std::unique_ptr<platform::x11::VirtualDisplay> xvfb_;
  std::unique_ptr<Painter> painter_;
};

// Every source, for INSTANTIATE_TEST_SUITE_P.
inline auto every_source() {
  return ::testing::Values(Source::kGetImage, Source::kShmMemfd, Source::kShmSysV, Source::kFramebuffer);
}

}  // namespace voxl::testing
