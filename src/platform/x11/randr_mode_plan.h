// The pure decisions behind the RandR resizer (randr_resizer.h): what voxl
// names the modes it makes, the timings it gives them, which existing mode
// serves a size, the physical size that keeps the DPI, and in which order
// the screen and the CRTC change so that the CRTC always fits the screen.
// No X here, so all of it is unit-tested.
//
// Threads: pure functions of their arguments; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/geometry.h"

namespace voxl::platform::x11 {

// Every mode voxl makes is named "voxl-<W>x<H>" (the probe "voxl-probe"),
// so modes a crashed run left behind are found and deleted at next start.
inline constexpr std::string_view kVoxlModePrefix = "voxl-";
std::string voxl_mode_name(Size size);
inline constexpr std::string_view kVoxlProbeModeName = "voxl-probe";
bool is_voxl_mode_name(std::string_view name);

// A mode's timings as RandR carries them (pixels, lines, Hz).
struct ModeTimings {
  Size size;
  uint32_t dot_clock = 0;
  int hsync_start = 0, hsync_end = 0, htotal = 0;
  int vsync_start = 0, vsync_end = 0, vtotal = 0;
  bool hsync_positive = true;  // reduced blanking: +hsync -vsync
  bool vsync_negative = true;
};

// VESA CVT reduced-blanking timings for `size` at `refresh_hz` (lowered
// for huge sizes until the pixel clock fits RandR's 32 bits). Xvfb accepts
// any timings; real drivers (Xorg's dummy, a virtual GPU) want plausible
// ones, and a monitor-less output has no EDID to offer better.
ModeTimings reduced_blanking_timings(Size size, int refresh_hz = 60);

// One mode an output offers.
struct OfferedMode {
  uint32_t id = 0;
  Size size;
  std::string name;
  bool interlaced_or_doublescan = false;
};

// The mode to use for `size` among `offered`: exact size, progressive; the
// current one first, then modes voxl did not make (the server's own), then
// voxl's. Nullopt: none has that size, one must be made.
std::optional<uint32_t> pick_mode(std::span<const OfferedMode> offered, Size size, uint32_t current);

// The physical size (mm) for a screen of `pixels` that keeps the density
// of `reference_pixels` at `reference_mm`; 96 DPI when the reference says
// nothing (0 mm). At least 1 mm each way.
Size millimetres_for(Size pixels, Size reference_pixels, Size reference_mm);

// RandR refuses a screen smaller than a CRTC on it, so a change from
// `current` to `target` goes: the screen to `before_crtc` (when set: the
// union of both, big enough for the old and the new CRTC), then the CRTC,
// then the screen to `after_crtc` (when set). Growing needs only the
// first, shrinking only the last, wider-but-shorter both.
struct ScreenSteps {
  std::optional<Size> before_crtc;
  std::optional<Size> after_crtc;
};
ScreenSteps plan_screen_steps(Size current, Size target);

// The mode size that fills a `screen` with a CRTC turned by `rotation`
// (RandR's bits: 2 and 8 are 90 and 270 degrees, which swap the sides).
Size mode_size_for(Size screen, uint16_t rotation);

// Empty when `size` lies within [min, max] both ways, else a sentence
// saying which limit it breaks.
std::string check_size_range(Size size, Size min, Size max);

}  // namespace voxl::platform::x11
