// How fast file transfers to one client address may send while a viewer at
// that address watches the stream: a background flow that yields to the
// picture, like LEDBAT (RFC 6817). The viewer's acks say how much queue
// there is at the bottleneck (its recent RTT above the minimum); a
// transfer that builds a queue there delays every frame behind it.
// Each ack moves the share in proportion to how far the queue is from
// kTargetDelayMs and to the time since the last move:
// - under the target it grows, at most doubling per kDoubleEvery (with no
//   queue at all);
// - over it, it shrinks, halving per kHalveEvery when the queue is twice
//   the target (or more), never below kFloorKbps, so a transfer always
//   moves.
// No ack for kQuiet (a still screen sends nothing): nothing to protect, so
// the transfer's own progress grows the share as an empty queue would.
// Past kUnpacedKbps the share is no limit at all (a LAN). Before the first
// ack there is no limit; the first sets the share to half the link's spare
// rate as the viewer measured it (its delivery rate less the video's
// target), at least kStartKbps: a rate sample can overshoot the link, and
// a queue built at the start takes a while to drain.
//
// Pure logic; callers pass steady_clock times. One owner (LinkShares, loop
// thread).
#pragma once

#include <chrono>
#include <optional>

namespace voxl::stream {

// What a viewer's ack says about its link.
struct LinkSample {
  double queue_delay_ms = 0;   // recent RTT above the minimum
  double min_rtt_ms = 0;
  double delivery_kbps = 0;    // the viewer's delivery rate estimate
  double video_kbps = 0;       // the encoder's target for this viewer
};

class TransferShare {
 public:
  using Time = std::chrono::steady_clock::time_point;

  static constexpr double kTargetDelayMs = 25;
  static constexpr auto kDoubleEvery = std::chrono::milliseconds(1000);
  static constexpr auto kHalveEvery = std::chrono::milliseconds(200);
  // One move spans at most this long (a long gap is not a long trend).
  static constexpr auto kLongestStep = std::chrono::milliseconds(1000);
  static constexpr auto kQuiet = std::chrono::milliseconds(300);
  static constexpr double kFloorKbps = 256;
  static constexpr double kStartKbps = 1000;
  static constexpr double kUnpacedKbps = 1'000'000;  // 1 Gbit/s

  explicit TransferShare(Time now) : last_move_(now), last_sample_(now) {}

  void on_link(const LinkSample& s, Time now);
  // A transfer at this address wrote a piece.
  void on_progress(Time now);

  // The rate all transfers at this address may share, in kbit/s; none: no
  // limit.
  std::optional<double> kbps() const;

 private:
  // `off`: (target - queue) / target, at least -1.
  void move(double off, Time now);

  double kbps_ = 0;  // 0: not started (no sample yet)
  Time last_move_;
  Time last_sample_;
};

}  // namespace voxl::stream
