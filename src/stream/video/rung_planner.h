// --max-encodes: which rung of the encoding ladder each consumer takes.
// Rung 0 is the best picture (the fastest links); each lower rung is coded
// at a lower bitrate for slower links. The rule, on every consumer's link
// estimate:
// - consumers with no estimate of their own (a recording, a viewer not
//   measured yet, one that never acknowledges) take rung 0 and do not set
//   its rate;
// - the measured ones, fastest first, form groups: the fastest heads rung
//   0; a consumer joins the group of the one before it while its link
//   carries at least kStayShare of that group's head rate (when it is in
//   that group or a faster one now) or kJoinShare (when it would come up
//   from a slower one), and otherwise heads the next rung, until the rungs
//   run out (the slowest group then takes every consumer left);
// - hysteresis: a consumer moves to the rung its group has only after that
//   rung was its place for kDownHold (to a slower rung) or kUpHold (to a
//   faster one) in a row; a rung taken away (the ladder shrank) moves its
//   consumers at once.
// The gap between the two shares is the dead band that keeps two viewers
// of about the same link together.
//
// Pure logic with no clock of its own (callers pass steady_clock times). One
// owner (the hub, loop thread); not thread-safe.
#pragma once

#include <chrono>
#include <span>
#include <vector>

namespace voxl::stream {

// The most rungs --max-encodes may ask for.
constexpr int kMaxRungs = 4;

struct RungSeat {
  using Time = std::chrono::steady_clock::time_point;
  int link_kbps = 0;        // the link's estimate; 0 when it has none (unmeasured)
  bool pinned_top = false;  // always rung 0 (a recording)
  int rung = 0;             // where it is (or is moving to); rewritten
  // The rung it has been leaning towards (-1: none) and since when; kept
  // between calls.
  int leaning_to = -1;
  Time leaning_since{};
};

class RungPlanner {
 public:
  using Time = RungSeat::Time;

  static constexpr double kStayShare = 0.5;
  static constexpr double kJoinShare = 0.7;
  static constexpr auto kDownHold = std::chrono::milliseconds(1000);
  static constexpr auto kUpHold = std::chrono::milliseconds(3000);

  // Rewrites every seat's rung for `rungs` rungs (1..kMaxRungs) at `now`;
  // true when some seat moved.
  bool plan(std::span<RungSeat> seats, int rungs, Time now);

  // Where each seat belongs now, before the hysteresis (plan's first step):
  // `out[i]` for `seats[i]`.
  void groups(std::span<const RungSeat> seats, int rungs, std::vector<int>& out);

 private:
  std::vector<size_t> order_;  // scratch: measured seats, fastest first
  std::vector<int> ideal_;     // scratch
};

}  // namespace voxl::stream
