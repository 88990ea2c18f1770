// The last seconds of the stream, kept in memory for retroactive
// recordings (/record?last=N): the encoded frames viewers were sent (shared,
// not copied), from a key frame on. Bounded by age and by bytes: when
// either is exceeded, whole groups of pictures (a key frame and the frames
// up to the next one) go from the front, so what is held always begins at
// a key frame (or is empty).
//
// The age bound keeps the newest group that began at or before
// newest - max_age, so a clip of the last max_age can start at a key frame:
// the span held is at most max_age plus one group. The byte bound is
// strict: bytes() never exceeds max_bytes after a push; a single group
// larger than that empties the ring until the next key frame.
//
// Threads: one owner (the loop thread). Pure: time comes from the frames'
// capture times and the caller's `now`.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "encode/encoded_frame.h"

namespace voxl::endpoints {

class RecordRing {
 public:
  using Clock = std::chrono::steady_clock;

  RecordRing(std::chrono::milliseconds max_age, uint64_t max_bytes);

  // A frame as published. Frames before the first key frame are not kept
  // (a clip must start at one); nor are stripes (no MP4 holds them) or
  // empty ones. A frame captured before the newest one held (time went
  // back) starts the ring afresh.
  void push(const encode::EncodedFramePtr& frame);

  // The frames from the newest key frame at or before `since` (or the
  // oldest one held, when all came later) to the newest, all of one
  // picture size: when the size changed, from the first key frame after
  // the last frame of another size than the newest (an MP4 track has one
  // size). Empty when nothing is held.
  std::vector<encode::EncodedFramePtr> clip(Clock::time_point since) const;

  // Whether a key frame should be asked for: none is held, or the newest
  // one held was captured `interval` or longer before `now`.
  bool needs_key(Clock::time_point now, std::chrono::milliseconds interval) const;

  size_t frames() const { return frames_.size(); }
  uint64_t bytes() const { return bytes_; }
  // The span held: from the first frame's capture to the newest's.
  std::chrono::milliseconds held() const;
  // The capture time of the oldest frame held (a key frame); nullopt when
  // empty.
  std::optional<Clock::time_point> oldest() const;
  std::chrono::milliseconds max_age() const { return max_age_; }
  uint64_t max_bytes() const { return max_bytes_; }

 private:
  void clear();
  void drop_first_group();
  void trim();

  std::chrono::milliseconds max_age_;
  uint64_t max_bytes_;
  std::deque<encode::EncodedFramePtr> frames_;  // front: a key frame
  uint64_t bytes_ = 0;
  std::deque<Clock::time_point> keys_;  // capture times of the key frames held
};

}  // namespace voxl::endpoints
