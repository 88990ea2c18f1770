#include "platform/x11/randr_mode_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace voxl::platform::x11 {

std::string voxl_mode_name(Size size) { return std::string(kVoxlModePrefix) + size_text(size); }

bool is_voxl_mode_name(std::string_view name) { return name.starts_with(kVoxlModePrefix); }

namespace {

// CVT's vertical sync width encodes the aspect ratio; anything else is 10.
int cvt_vsync_lines(Size s) {
  const int64_t w = s.width, h = s.height;
  if (h * 4 == w * 3) return 4;
  if (h * 16 == w * 9) return 5;
  if (h * 16 == w * 10) return 6;
  if (h * 5 == w * 4 || h * 15 == w * 9) return 7;
  return 10;
}

}  // namespace

ModeTimings reduced_blanking_timings(Size size, int refresh_hz) {
  // CVT reduced blanking (version 1): a fixed 160-pixel horizontal blank
  // (48 front porch, 32 sync), a vertical blank of at least 460 us with a
  // 3-line front porch and at least 6 lines of back porch, and the pixel
  // clock rounded down to a 0.25 MHz step.
  constexpr double kMinVBlankUs = 460.0;
  constexpr int kHBlank = 160, kHFrontPorch = 48, kHSync = 32;
  constexpr int kVFrontPorch = 3, kMinVBackPorch = 6;
  constexpr uint64_t kClockStep = 250'000;

  ModeTimings t;
  t.size = size;
  const int vsync = cvt_vsync_lines(size);
  t.hsync_start = size.width + kHFrontPorch;
  t.hsync_end = t.hsync_start + kHSync;
  t.htotal = size.width + kHBlank;
  t.vsync_start = size.height + kVFrontPorch;
  t.vsync_end = t.vsync_start + vsync;
  for (int hz = std::max(refresh_hz, 1);; --hz) {
    const double line_us = (1e6 / hz - kMinVBlankUs) / std::max(size.height, 1);
    const int blank_lines = line_us > 0 ? int(kMinVBlankUs / line_us) + 1 : 0;
    const int vblank = std::max(blank_lines, kVFrontPorch + vsync + kMinVBackPorch);
    t.vtotal = size.height + vblank;
    const uint64_t clock = uint64_t(hz) * uint64_t(t.vtotal) * uint64_t(t.htotal) / kClockStep * kClockStep;
    if (clock <= std::numeric_limits<uint32_t>::max() || hz == 1) {
      t.dot_clock = uint32_t(std::min<uint64_t>(clock, std::numeric_limits<uint32_t>::max()));
      return t;
    }
  }
}

std::optional<uint32_t> pick_mode(std::span<const OfferedMode> offered, Size size, uint32_t current) {
  std::optional<uint32_t> best;
  int best_rank = 3;
  for (const OfferedMode& m : offered) {
    if (m.size != size || m.interlaced_or_doublescan) continue;
    const int rank = m.id == current ? 0 : is_voxl_mode_name(m.name) ? 2 : 1;
    if (rank < best_rank) {
      best = m.id;
      best_rank = rank;
    }
  }
  return best;
}

Size millimetres_for(Size pixels, Size reference_pixels, Size reference_mm) {
  auto one = [](int px, int ref_px, int ref_mm) {
    const double mm = ref_px > 0 && ref_mm > 0 ? double(px) * ref_mm / ref_px : px * 25.4 / 96.0;
    return std::max(1, int(std::lround(mm)));
  };
  return {one(pixels.width, reference_pixels.width, reference_mm.width),
          one(pixels.height, reference_pixels.height, reference_mm.height)};
}

ScreenSteps plan_screen_steps(Size current, Size target) {
  const Size both{std::max(current.width, target.width), std::max(current.height, target.height)};
  ScreenSteps s;
  if (both != current) s.before_crtc = both;
  if (both != target) s.after_crtc = target;
  return s;
}

Size mode_size_for(Size screen, uint16_t rotation) {
  constexpr uint16_t kQuarterTurns = 2 | 8;  // XCB_RANDR_ROTATION_ROTATE_90 | _270
  return (rotation & kQuarterTurns) ? Size{screen.height, screen.width} : screen;
}

std::string check_size_range(Size size, Size min, Size max) {
  if (size.width >= min.width && size.height >= min.height && size.width <= max.width &&
      size.height <= max.height)
    return {};
  const std::string range = size_text(min) + " to " + size_text(max);
  if (size.width > max.width || size.height > max.height)
    return size_text(size) + " is larger than the X screen allows (" + range + ")";
  return size_text(size) + " is smaller than the X screen allows (" + range + ")";
}

}  // namespace voxl::platform::x11
