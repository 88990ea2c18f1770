// Capture helpers for the tests of every capture backend (X11, Wayland):
// capturing until a frame comes, and the first pixel of a frame that is not
// what was drawn.
//
// Threads: the capturer's own (the test's).
#pragma once

#include <chrono>
#include <string>

#include "capture/capturer.h"
#include "capture/frame_pool.h"

namespace voxl::testing {

// Calls capture() until it returns kOk (or a failure that will not pass:
// kPermanent, kReinit) or `limit` passes; the last result.
inline capture::CaptureResult capture_until_ok(capture::Capturer& cap, capture::FramePool& pool,
                                               std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  capture::CaptureResult r;
  do {
    r = cap.capture(pool, std::chrono::milliseconds(200));
    if (r.status == capture::CaptureStatus::kOk || r.status == capture::CaptureStatus::kPermanent ||
        r.status == capture::CaptureStatus::kReinit)
      return r;
  } while (std::chrono::steady_clock::now() < deadline);
  return r;
}

// First pixel of `frame` (frame coordinates) that differs from `expected`
// (0x00RRGGBB at frame x, y); empty when all match.
template <class Expected>
std::string first_mismatch(const capture::Frame& frame, Expected expected) {
  for (int y = 0; y < frame.size().height; ++y)
    for (int x = 0; x < frame.size().width; ++x)
      if (frame.pixel(x, y) != (expected(x, y) & 0xffffffu))
        return "pixel (" + std::to_string(x) + "," + std::to_string(y) + ") is " +
               std::to_string(frame.pixel(x, y)) + ", expected " +
               std::to_string(expected(x, y) & 0xffffffu);
  return {};
}

}  // namespace voxl::testing
