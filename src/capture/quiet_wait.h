// When a drawing in progress may be taken as finished: a program draws a
// frame as a series of requests, and the display server reports damage as
// it processes them, so the first report of a frame usually comes while the
// rest is still being drawn. A capture then would grab half a frame (and
// the other half one capture later). QuietWait says how long to keep
// absorbing reports: until none has come for `quiet`, but never longer than
// `longest` after the first, so continuous drawing is still captured at
// the frame rate.
//
// Pure logic with no clock of its own (callers pass steady_clock times). One
// owner (the capturing thread).
#pragma once

#include <algorithm>
#include <chrono>

namespace voxl::capture {

class QuietWait {
 public:
  using Clock = std::chrono::steady_clock;

  // A change was seen at `start`.
  QuietWait(Clock::time_point start, Clock::duration quiet, Clock::duration longest)
      : last_(start), end_(start + longest), quiet_(quiet) {}

  // Another change was reported at `at`.
  void on_change(Clock::time_point at) { last_ = std::max(last_, at); }
  // Until when to wait for the next report.
  Clock::time_point deadline() const { return std::min(last_ + quiet_, end_); }
  // Whether waiting is over at `now`: quiet long enough, or the longest wait.
  bool done(Clock::time_point now) const { return now >= deadline(); }

 private:
  Clock::time_point last_;
  Clock::time_point end_;
  Clock::duration quiet_;
};

}  // namespace voxl::capture
