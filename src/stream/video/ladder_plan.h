// Which rungs of the ladder code a capture: pure rules over what each rung
// wants, so they are tested without a thread, a screen or an encoder.
//
// A rung codes a capture when someone takes it, its consumers can take a
// frame (or it has waited kMaxPause without one), and the capture falls in
// its own frame rate's slot; a key frame asked for does not wait for the
// slot. A capture that found nothing new still codes what a rung owes, or a
// key frame asked for once there is a picture; with none of those, only a
// paintover (when one is due) makes it worth coding.
//
// Pure functions; any thread.
#pragma once

#include <array>
#include <chrono>
#include <optional>
#include <span>

#include "stream/video/rung_planner.h"

namespace voxl::stream {

// One rung as the plan sees it.
struct RungView {
  using Clock = std::chrono::steady_clock;
  bool wanted = false;  // someone takes it
  bool ready = false;   // its consumers can take a frame now
  bool owes = false;    // it skipped damage it has yet to code
  bool key = false;     // a key frame was asked for
  std::optional<Clock::time_point> last_coded;
  Clock::time_point next_slot = Clock::time_point::min();  // its frame rate's next slot
};

struct LadderPlan {
  std::array<bool, kMaxRungs> codes{};  // rung i codes this capture
  bool any = false;                     // some rung does
  // Without new damage: some coding rung has debt or a key frame to make.
  bool other_work = false;
};

LadderPlan plan_ladder(std::span<const RungView> rungs, std::chrono::steady_clock::time_point now,
                       std::chrono::steady_clock::duration max_pause, bool have_picture);

}  // namespace voxl::stream
