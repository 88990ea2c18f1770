// Timing one X11Capturer, plus the picture comparisons that make the timings
// trustworthy: a fast source that returns the wrong pixels proves nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "bench_stats.h"
#include "capture/frame.h"
#include "platform/x11/x11_capturer.h"

namespace voxl::bench {

// A check failed: the numbers must not be reported as valid.
class BenchCheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A packed copy of a picture's 24-bit colours. The frame's top byte is
// unused and sources need not agree on it, so it is cleared.
struct Snapshot {
  Size size;
  std::vector<uint32_t> pixels;  // 0x00RRGGBB, row after row
};

Snapshot take_snapshot(const capture::Frame& frame);

// How `got` differs from `want` (count and first pixel); empty when equal.
std::string describe_difference(const Snapshot& got, const Snapshot& want);

inline constexpr int kDamagedSide = 64;

// The 64x64 area the damaged grabs invalidate: near the centre, on the
// 16-pixel block grid so that exactly that area is grabbed.
Rect damaged_area(Size capture);

struct SourceTimings {
  Timing full;     // invalidate_all() + capture()
  Timing damaged;  // invalidate(damaged_area()) + capture()
};

// Sees each complete frame the measurement checks: one right after the full
// grabs ("full") and one after the damaged grabs ("damaged"). Throws
// BenchCheckFailed to stop the run.
using FrameInspector = std::function<void(const char* stage, const capture::Frame& frame)>;

// Times `warmup` + `iterations` full grabs, then as many damaged grabs, each
// into a pool of one buffer so a grab is exactly: X request (or framebuffer
// read) plus the copy into the frame. `name` labels error messages.
SourceTimings measure_source(platform::x11::X11Capturer& capturer, const std::string& name,
                             int warmup, int iterations, const FrameInspector& inspect);

}  // namespace voxl::bench
