// The bitrate one viewer's link can take, as a target for x264's VBV: a
// delay-based AIMD in the spirit of WebRTC's congestion control, fed by the
// viewer's LinkEstimator.
// - A standing queue (the least RTT of the last few acks above the minimum,
//   LinkEstimator::standing_queue_delay_ms, and no more than the kernel's
//   TCP sees where it says: its smoothed RTT over its recent floor) above
//   a threshold means frames are piling up
//   at the bottleneck: drop to 85% of the recent delivery
//   rate, so the queue drains (or by 10% once per RTT when nothing was
//   measured). A few late acks from a busy machine are not a queue: the
//   delivery rate they measure is the content's, and cutting to it would
//   walk a link that is not full down to the floor.
// - Queueing delay near zero: grow every kGrowEvery, by 3% near the rate
//   at which the link last pushed back, then faster and faster past it (up
//   to 15%, also the step far below it), but only while
//   the stream uses at least half of the target, so a still screen does not
//   push the target to a rate the link was never shown to carry.
// Always within [min_kbps, max_kbps].
//
// Pure logic; callers pass steady_clock times. One owner (a viewer session,
// loop thread).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <span>

#include "base/windowed_extremum.h"
#include "platform/tcp_path.h"
#include "stream/viewer/link_estimator.h"

namespace voxl::stream {

struct BitrateLimits {
  int min_kbps = 2000;
  int max_kbps = 30000;
};

class BitrateController {
 public:
  using Time = LinkEstimator::Time;

  static constexpr int kStartKbps = 10000;  // clamped to the limits
  static constexpr double kMinQueueMs = 15;  // about one frame at 60 fps
  static constexpr auto kGrowEvery = std::chrono::milliseconds(100);
  static constexpr double kMinGrowth = 0.03;
  static constexpr double kMaxGrowth = 0.15;

  explicit BitrateController(BitrateLimits limits);

  // What the kernel's TCP measures of the viewer's connection: one system
  // call, made at most every kKernelEvery (and whenever the acks show a
  // queue).
  using KernelPath = std::function<std::optional<platform::TcpPath>()>;
  static constexpr auto kKernelEvery = std::chrono::milliseconds(100);
  // TCP's smoothed RTT is judged against its own least over this long:
  // jitter (Wi-Fi's, a mobile link's) lifts the smoothed RTT over the
  // path's least RTT all the time, as a standing queue would, but lifts
  // its floor as much; a queue we build raises it above that floor.
  static constexpr auto kKernelFloorWindow = std::chrono::seconds(2);
  // The floor of the kernel's smoothed RTT must be at least this share of
  // the acks' least RTT for its connection to be taken as the viewer's
  // path: behind a proxy that ends TCP (a reverse proxy, linkem) the kernel
  // times only the hop to it. (Not the kernel's least RTT: on a jittery
  // link a lone segment that met no jitter sets that, while a frame of
  // many segments always waits for the most delayed of them.)
  static constexpr double kSamePathShare = 0.5;

  // After each ack. `sent_kbps`: what the viewer was actually sent over
  // the last second or so. `kernel`: what the kernel's TCP measures, where
  // the system says (empty: nothing). TCP times no retransmitted segment, so after a lost
  // packet the acks come late (every frame behind it waits) while TCP's
  // RTT does not rise: on the viewer's own path a queue is only taken as
  // one when both show it (TCP's smoothed RTT over the floor it kept in
  // the last kKernelFloorWindow), and a lossy or jittery link is not
  // talked down to the floor.
  void on_feedback(const LinkEstimator& link, double sent_kbps, Time now,
                   const KernelPath& kernel = {});

  int target_kbps() const { return target_kbps_; }
  // The last feedback showed a queue building up on the link.
  bool congested() const { return congested_; }
  // The link has pushed back at least once (the target came down for a
  // queue): its rate is known to be limited, not just not probed yet.
  bool pushed_back() const { return congested_at_kbps_ > 0; }
  // Queueing delay above which the link counts as congested.
  static double threshold_ms(const LinkEstimator& link);

 private:
  BitrateLimits limits_;
  int target_kbps_;
  bool congested_ = false;
  Time last_change_{};
  Time last_decrease_{};
  double congested_at_kbps_ = 0;  // the target when the link last pushed back
  double growth_ = kMaxGrowth;    // per kGrowEvery
  Time last_kernel_read_{};
  WindowedMin<double> kernel_srtt_floor_{kKernelFloorWindow, 256};
};

// The one encoder target for several viewers: the slowest viewer's, but not
// below min_kbps: a viewer whose link cannot take even that skips frames
// (its window stays full) and resyncs on a key frame instead of dragging
// every other viewer's picture down. No viewers: max_kbps.
int combined_target_kbps(std::span<const int> viewer_targets, BitrateLimits limits);

}  // namespace voxl::stream
