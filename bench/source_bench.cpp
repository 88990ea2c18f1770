#include "source_bench.h"

#include <cstdio>
#include <cstring>

#include "base/block_map.h"
#include "bench_options.h"
#include "capture/frame_pool.h"

namespace voxl::bench {

namespace {

using capture::CaptureStatus;
using capture::FramePool;
using capture::FrameRef;
using platform::x11::X11Capturer;

constexpr uint32_t kColorMask = 0x00ffffffu;

struct Grab {
  FrameRef frame;
  double ms = 0;
};

// Marks `area` changed and captures it without waiting for the server's
// damage. Only capture() is timed: that is the grab plus the copy.
Grab grab(X11Capturer& capturer, FramePool& pool, const Rect& area, const std::string& name) {
  capturer.invalidate(area);
  const auto start = Clock::now();
  capture::CaptureResult result = capturer.capture(pool, std::chrono::milliseconds(0));
  const double ms = ms_since(start);
  if (result.status != CaptureStatus::kOk)
    throw BenchCheckFailed(name + ": capture() returned " + capture::to_string(result.status) +
                           (result.error.empty() ? "" : ": " + result.error));
  return {std::move(result.frame), ms};
}

// A damaged grab that also fetched anything else (stray damage from another
// client, say) would time more than 64x64 pixels.
void expect_damage_only(const capture::Frame& frame, const Rect& area, const std::string& name) {
  if (frame.damage_rects.size() == 1 && frame.damage_rects.front() == area) return;
  std::string got;
  for (const Rect& r : frame.damage_rects) got += (got.empty() ? "" : " ") + to_string(r);
  throw BenchCheckFailed(name + ": a damaged grab of " + to_string(area) + " reported damage " +
                         (got.empty() ? "(none)" : got) + "; is something drawing on the screen?");
}

std::string hex_color(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%06x", unsigned(v));
  return buf;
}

}  // namespace

Snapshot take_snapshot(const capture::Frame& frame) {
  const Size s = frame.size();
  Snapshot out{s, std::vector<uint32_t>(size_t(s.area()))};
  const size_t row_bytes = size_t(s.width) * capture::kBytesPerPixel;
  for (int y = 0; y < s.height; ++y)
    std::memcpy(out.pixels.data() + size_t(y) * size_t(s.width), frame.row(y), row_bytes);
  for (uint32_t& p : out.pixels) p &= kColorMask;
  return out;
}

std::string describe_difference(const Snapshot& got, const Snapshot& want) {
  if (got.size != want.size)
    return "picture is " + to_string(got.size) + ", expected " + to_string(want.size);
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < got.pixels.size(); ++i) {
    if (got.pixels[i] == want.pixels[i]) continue;
    if (differ++ == 0) first = i;
  }
  if (differ == 0) return {};
  const size_t w = size_t(got.size.width);
  return std::to_string(differ) + " of " + std::to_string(got.pixels.size()) +
         " pixels differ; first at (" + std::to_string(first % w) + "," +
         std::to_string(first / w) + "): " + hex_color(got.pixels[first]) + ", expected " +
         hex_color(want.pixels[first]);
}

Rect damaged_area(Size capture) {
  constexpr int kGrid = BlockMap::kBlock;
  const int x = (capture.width - kDamagedSide) / 2 / kGrid * kGrid;
  const int y = (capture.height - kDamagedSide) / 2 / kGrid * kGrid;
  return {x, y, kDamagedSide, kDamagedSide};
}

SourceTimings measure_source(X11Capturer& capturer, const std::string& name, int warmup,
                             int iterations, const FrameInspector& inspect) {
  // One buffer: every capture refills the same frame, and after the first
  // one the pool asks only for what was invalidated. The previous FrameRef
  // must be gone before the next capture, or the pool has nothing to lend.
  FramePool pool(1);
  const Rect full = Rect::from_size(capturer.size());
  const Rect damaged = damaged_area(capturer.size());

  SourceTimings t;
  t.full = summarize(
      collect(warmup, iterations, [&] { return grab(capturer, pool, full, name).ms; }));
  inspect("full", *grab(capturer, pool, full, name).frame);

  t.damaged = summarize(collect(warmup, iterations, [&] {
    Grab g = grab(capturer, pool, damaged, name);
    expect_damage_only(*g.frame, damaged, name);
    return g.ms;
  }));
  inspect("damaged", *grab(capturer, pool, damaged, name).frame);
  return t;
}

}  // namespace voxl::bench
