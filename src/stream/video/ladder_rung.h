// One rung of the encoding ladder as the video thread keeps it: its
// encoder (made when the rung is first coded, dropped when no one takes it),
// its frame rate (FrameRateGovernor: a rung's bitrate sets its own), the
// damage it has not coded yet (a rung that skips a capture, because its
// viewers are congested or its frame rate is lower than the capture's, codes
// that damage with its next frame; the picture it codes is always the
// newest, so nothing is lost), and each stream's codec string.
//
// Threads: owned and used by the video thread only.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "encode/video_encoder.h"
#include "stream/video/frame_rate_governor.h"

namespace voxl::stream {

struct LadderRung {
  using Clock = std::chrono::steady_clock;

  LadderRung(int min_fps, int max_fps) : rate(min_fps, max_fps) {}

  std::unique_ptr<encode::VideoEncoder> encoder;
  FrameRateGovernor rate;
  std::vector<std::string> codecs;  // each stream's, from its last key frame
  std::optional<Clock::time_point> last_coded;  // capture time of its last frame

  // Past this many rectangles the damage owed is their bounding box.
  static constexpr size_t kMaxPending = 64;

  // Damage of a capture this rung did not code.
  void owe(std::span<const Rect> rects);
  bool owes() const { return !pending_.empty(); }
  // What the next frame codes: `rects` (this capture's damage) and what was
  // owed; `out` is replaced. Clears the debt.
  void take(std::span<const Rect> rects, std::vector<Rect>& out);
  // Whether a capture at `now` is a slot for a rung at `fps`: at least
  // three quarters of its interval since its last frame (captures come at
  // the fastest rung's rate, with jitter).
  bool slot(Clock::time_point now, int fps) const { return now >= next_slot(fps); }
  Clock::time_point next_slot(int fps) const;
  // The rung is no longer coded: its encoder and debt go (a new encoder
  // starts with a key frame of the whole picture).
  void drop();

 private:
  std::vector<Rect> pending_;
};

}  // namespace voxl::stream
