// When the shared encoder codes full-resolution chroma (4:4:4, High 4:4:4
// Predictive) and when it goes back to 4:2:0 (Constrained Baseline). Every
// switch is an IDR of the other profile, so the rule is built to switch
// rarely:
//   - 4:4:4 only while every consumer said it decodes it (allowed), and
//     only as a paintover: once the screen has been still for the
//     paintover delay. Small updates after that (typing, a cursor, a
//     tooltip) stay 4:4:4, so coloured text stays sharp as it changes.
//   - Back to 4:2:0 at once when it is no longer allowed (a viewer or a
//     recording that does not take 4:4:4 joined), or after kHeavyFrames
//     frames in a row each damaging at least kHeavyFraction of the
//     picture (scrolling, video, a full-screen animation): motion is
//     cheaper to code, and to decode, at 4:2:0. A single big change (a
//     window switch) stays 4:4:4.
//   - At most one switch into 4:4:4 per kMinInterval, so whatever the
//     screen does, mode switches cost at most two IDRs per kMinInterval.
//     A still screen that comes during the hold-off is switched when the
//     hold-off ends (full_chroma_due).
//
// Pure logic; one thread (the video thread).
#pragma once

#include <chrono>
#include <optional>

#include "encode/i420_image.h"

namespace voxl::stream {

class ChromaPolicy {
 public:
  using Time = std::chrono::steady_clock::time_point;
  static constexpr double kHeavyFraction = 0.10;
  static constexpr int kHeavyFrames = 3;
  static constexpr std::chrono::milliseconds kMinInterval{2000};

  encode::ChromaFormat format() const { return format_; }

  // A changed picture, `damaged_fraction` (0..1) of it new, is about to be
  // encoded; `allowed` as above. Returns the format to encode it in.
  encode::ChromaFormat on_change(double damaged_fraction, bool allowed, Time now);

  // The screen has been still for the paintover delay and a paintover is
  // about to be encoded at `now`. Returns the format to encode it in: 4:4:4
  // when allowed and the hold-off is over.
  encode::ChromaFormat on_still(bool allowed, Time now);

  // While in 4:2:0 and allowed: the earliest time on_still() switches to
  // 4:4:4 (Time::min() when no hold-off runs), so a still screen that
  // came during the hold-off can be switched when it ends. nullopt when
  // in 4:4:4 or not allowed.
  std::optional<Time> full_chroma_due(bool allowed) const;

 private:
  void leave_full();
  Time earliest_entry() const;

  encode::ChromaFormat format_ = encode::ChromaFormat::k420;
  int heavy_run_ = 0;
  std::optional<Time> entered_at_;  // the last switch into 4:4:4
};

}  // namespace voxl::stream
