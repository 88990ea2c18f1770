// Which ShmGetImage requests bring a set of damaged rectangles into a frame
// whose buffer is a segment with stride = width * 4. ShmGetImage writes the
// requested rectangle packed (rows of its own width) at an offset, so only a
// full-width band of rows lands in place (offset = y * stride); anything
// narrower goes to the segment's staging area and is copied into place.
//
// The rule: a rectangle at least kBandMinWidth of the frame's width is grabbed
// as its full-width band (the server copies the extra pixels, the client
// copies nothing); a narrower one is staged (the server copies only it, the
// client once more). Bands that overlap or touch merge into one request, and
// narrow rectangles lose the rows a band already brings. At half the width
// both cost the same bytes copied (band: 2 x w x h by the server; staged:
// w x h by the server plus w x h by us); docs/benchmarks.md (Capture and
// the browser) has the measured costs of each path.
//
// Pure; any thread.
#pragma once

#include <span>
#include <vector>

#include "base/geometry.h"

namespace voxl::platform::x11 {

// A rectangle at least this fraction (num / den) of the frame wide is banded.
inline constexpr int kBandMinWidthNum = 1;
inline constexpr int kBandMinWidthDen = 2;

struct ShmRequest {
  Rect rect;      // frame coordinates
  bool in_place;  // a full-width band written straight into the frame
};

// Requests covering every pixel of `rects` (inside a `frame`-sized frame),
// bands first, top to bottom. Bands may cover more than `rects`.
std::vector<ShmRequest> plan_shm_requests(std::span<const Rect> rects, Size frame);

}  // namespace voxl::platform::x11
