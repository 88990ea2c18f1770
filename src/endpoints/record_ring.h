// The last seconds of the stream, kept in memory for retroactive
// recordings (/record?last=N): the encoded frames viewers were sent (shared,
// not copied), from a key frame on. Bounded by age and by bytes: when
// either is exceeded, whole groups of pictures go from the front, so what
// is held always begins at a key frame (or is empty).
//
// Threads: one owner (the loop thread). Pure: time comes from the frames'
// capture times and the caller's `now`.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "encode/encoded_frame.h"

namespace voxl::endpoints {

class RecordRing {
 public:
  using Clock = std::chrono::steady_clock;

  RecordRing(std::chrono::milliseconds max_age, uint64_t max_bytes);

  // A frame as published. Frames before the first key frame are not kept
  // (a clip must start at one); nor are stripes (no MP4 holds them).
  void push(const encode::EncodedFramePtr& frame);

  // The frames from the newest key frame at or before `since` (or the
  // oldest one held, when all came later) to the newest, all of one
  // picture size (after a size change, from the first key frame of the
  // newest size). Empty when nothing is held.
  std::vector<encode::EncodedFramePtr> clip(Clock::time_point since) const;

  // When the ring wants a key frame asked for: the newest one held is
  // older than `interval` at `now` (or none is held).
  bool needs_key(Clock::time_point now, std::chrono::milliseconds interval) const;

  size_t frames() const { return frames_.size(); }
  uint64_t bytes() const { return bytes_; }
  // The span held: from the first frame's capture to the newest's.
  std::chrono::milliseconds held() const;
  std::chrono::milliseconds max_age() const { return max_age_; }
  uint64_t max_bytes() const { return max_bytes_; }

 private:
  void drop_first_group();
  void trim();

  std::chrono::milliseconds max_age_;
  uint64_t max_bytes_;
  std::deque<encode::EncodedFramePtr> frames_;
  uint64_t bytes_ = 0;
  std::deque<Clock::time_point> keys_;  // capture times of the key frames held
};

}  // namespace voxl::endpoints
