// The largest (or smallest) value seen over a sliding window of time, kept
// with a monotonic deque: each sample enters once and leaves once, so an
// update costs O(1) amortised. The window is a duration, and the deque never
// holds more than `max_samples` (the oldest go first), so memory is bounded
// even if samples arrive faster than expected.
//
// Pure logic; one owner, no locking.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <optional>

namespace voxl {

template <class T, class Better>
class WindowedExtremum {
 public:
  using Time = std::chrono::steady_clock::time_point;
  using Duration = std::chrono::steady_clock::duration;

  explicit WindowedExtremum(Duration window, size_t max_samples = 1024)
      : window_(window), max_samples_(max_samples) {}

  void add(T value, Time now) {
    // A newer sample at least as good makes older ones irrelevant.
    while (!samples_.empty() && !Better{}(samples_.back().value, value)) samples_.pop_back();
    samples_.push_back({value, now});
    if (samples_.size() > max_samples_) samples_.pop_front();
    expire(now);
  }

  // Drops samples older than the window; the newest always stays, so a
  // value exists until reset() once anything was added.
  void expire(Time now) {
    while (samples_.size() > 1 && now - samples_.front().at > window_) samples_.pop_front();
  }

  std::optional<T> best() const {
    if (samples_.empty()) return std::nullopt;
    return samples_.front().value;
  }
  void reset() { samples_.clear(); }
  void set_window(Duration window) { window_ = window; }

 private:
  struct Sample {
    T value;
    Time at;
  };
  Duration window_;
  size_t max_samples_;
  std::deque<Sample> samples_;  // values strictly worse front to back
};

template <class T>
using WindowedMax = WindowedExtremum<T, std::greater<T>>;
template <class T>
using WindowedMin = WindowedExtremum<T, std::less<T>>;

}  // namespace voxl
