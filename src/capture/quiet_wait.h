// When a drawing in progress may be taken as finished: a program draws a
// frame as a series of requests, and the display server reports damage as
// it processes them, so the first report of a frame usually comes while the
// rest is still being drawn. A capture then would grab half a frame (and
// the other half one capture later). QuietWait says how long to keep
// absorbing reports: until none has come for `quiet` and the server has
// confirmed it has nothing more in hand, but never longer than `longest`
// after the first, so continuous drawing is still captured at the frame
// rate.
//
// A quiet time alone is not proof: on a loaded machine the display server
// is descheduled in the middle of a frame for longer than any quiet time
// worth waiting (a full-screen frame of the benchmark, 5 ms of drawing, was
// captured torn in over half the captures at 500 µs). So once the quiet time
// has passed, the caller asks for a confirmation (a round trip: the server
// answers after the batch of requests it is running, and reports the damage
// of that batch before the answer) and passes what came back to
// on_confirmed(): damage before the answer starts the quiet time again.
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

  // The longest wait for a capture at frame interval `interval`: half of it
  // (a full-screen frame takes the X server about a third of a 60 Hz
  // interval to draw on a loaded 2-core machine, more than the quarter
  // frame this was), or `quiet` if longer. The other half is for the grab,
  // conversion and encoding.
  static Clock::duration longest_for(Clock::duration interval, Clock::duration quiet) {
    return std::max(quiet, interval / 2);
  }

  // A change was seen at `start`.
  QuietWait(Clock::time_point start, Clock::duration quiet, Clock::duration longest)
      : last_(start), end_(start + longest), quiet_(quiet) {}

  // Another change was reported at `at`: the quiet time starts again, and
  // must be confirmed again.
  void on_change(Clock::time_point at) {
    last_ = std::max(last_, at);
    confirmed_ = false;
  }
  // Until when to wait for the next report.
  Clock::time_point deadline() const { return std::min(last_ + quiet_, end_); }
  // Whether the longest wait is over at `now`: capture whatever is there.
  bool capped(Clock::time_point now) const { return now >= end_; }
  // Whether the quiet time has passed at `now` without a confirmation:
  // time for the caller's round trip.
  bool needs_confirmation(Clock::time_point now) const {
    return !confirmed_ && !capped(now) && now >= last_ + quiet_;
  }
  // The round trip came back at `at`, with (`changed`) or without damage
  // reported before it.
  void on_confirmed(bool changed, Clock::time_point at) {
    if (changed) on_change(at);
    else confirmed_ = true;
  }
  // Whether waiting is over at `now`: quiet long enough and confirmed, or
  // the longest wait.
  bool done(Clock::time_point now) const { return capped(now) || (confirmed_ && now >= last_ + quiet_); }

 private:
  Clock::time_point last_;
  Clock::time_point end_;
  Clock::duration quiet_;
  bool confirmed_ = false;
};

}  // namespace voxl::capture
