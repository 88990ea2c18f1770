// The damage sequence behind /wait, X-Voxl-Seq and (later) /input: a counter
// that grows by one for every batch of screen changes, and the most recent
// batches with where they were, so "did region R change after seq S?" has
// an exact answer for recent S and a safe one (yes) for older S.
//
// Pure logic; loop thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "base/geometry.h"

namespace voxl::endpoints {

using Clock = std::chrono::steady_clock;

// `r` grown outwards to whole 16-pixel blocks: a region is watched to the block.
Rect block_aligned(const Rect& r);
// Whether any of `rects` touches `region` (nullopt: the whole screen).
bool touches(const std::vector<Rect>& rects, const std::optional<Rect>& region);

class ChangeLog {
 public:
  static constexpr size_t kKeptBatches = 1024;
  static constexpr size_t kKeptRects = 32;  // more than this are kept as their bounding box

  uint64_t seq() const { return seq_; }

  // A new batch: returns its seq.
  uint64_t add(std::vector<Rect> rects);

  // Whether anything in `region` changed in a batch after `since`. A batch
  // too old to be kept counts as a change: asking about it is rare, and a
  // false "changed" only costs the caller a look.
  bool changed_since(uint64_t since, const std::optional<Rect>& region) const;

 private:
  struct Batch {
    uint64_t seq;
    std::vector<Rect> rects;
  };
  uint64_t seq_ = 0;
  std::deque<Batch> batches_;
};

}  // namespace voxl::endpoints
