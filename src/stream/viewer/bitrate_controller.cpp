#include "stream/viewer/bitrate_controller.h"

#include <algorithm>
#include <cmath>

namespace voxl::stream {

namespace {

int clamp_kbps(double kbps, const BitrateLimits& l) {
  return int(std::lround(std::clamp(kbps, double(l.min_kbps), double(l.max_kbps))));
}

}  // namespace

BitrateController::BitrateController(BitrateLimits limits)
    : limits_(limits), target_kbps_(clamp_kbps(kStartKbps, limits)) {}

double BitrateController::threshold_ms(const LinkEstimator& link) {
  return std::max(kMinQueueMs, 0.25 * link.min_rtt_ms());
}

void BitrateController::on_feedback(const LinkEstimator& link, double sent_kbps, Time now,
                                    const KernelPath& kernel) {
  if (!link.has_samples()) return;
  double queue = link.standing_queue_delay_ms();
  const double threshold = threshold_ms(link);
  std::optional<double> kernel_queue;
  if (kernel && (queue > threshold / 2 || last_kernel_read_ == Time{} || now - last_kernel_read_ >= kKernelEvery)) {
    last_kernel_read_ = now;
    if (const auto path = kernel()) {
      kernel_srtt_floor_.add(path->srtt_ms, now);
      const double floor = std::max(path->min_rtt_ms, kernel_srtt_floor_.best().value_or(path->srtt_ms));
      if (floor >= kSamePathShare * link.min_rtt_ms()) kernel_queue = std::max(0.0, path->srtt_ms - floor);
    }
  }
  // Below threshold / 2 the target grows whatever the kernel says.
  if (queue > threshold / 2 && kernel_queue) queue = std::min(queue, *kernel_queue);
  congested_ = queue > threshold;
  if (congested_) {
    // Below what the link delivers right now, so the queue drains. The
    // measured rate says where to go at once; without one, step down once
    // a round trip, when the last step has had time to show.
    const int before = target_kbps_;
    if (link.recent_kbps() > 0) {
      target_kbps_ = std::min(target_kbps_, clamp_kbps(0.85 * link.recent_kbps(), limits_));
    } else {
      const auto rtt = std::chrono::duration<double, std::milli>(std::max(link.srtt_ms(), 50.0));
      if (last_decrease_ != Time{} && now - last_decrease_ < rtt) return;
      target_kbps_ = clamp_kbps(target_kbps_ * 0.9, limits_);
    }
    if (target_kbps_ < before) congested_at_kbps_ = before;
    last_decrease_ = last_change_ = now;
    return;
  }
  if (queue > threshold / 2) return;  // hold
  if (last_change_ != Time{} && now - last_change_ < kGrowEvery) return;
  if (sent_kbps < 0.5 * target_kbps_) return;  // the target is not what limits
  // Probe gently near the rate at which the link last pushed back, faster
  // and faster once past it (the link may have got faster), quickly far
  // below it.
  if (target_kbps_ < 0.8 * congested_at_kbps_) {
    growth_ = kMaxGrowth;
  } else if (target_kbps_ < 1.1 * congested_at_kbps_) {
    growth_ = kMinGrowth;
  } else {
    growth_ = std::min(kMaxGrowth, growth_ * 1.5);
  }
  target_kbps_ = clamp_kbps(target_kbps_ * (1 + growth_), limits_);
  last_change_ = now;
}

int combined_target_kbps(std::span<const int> viewer_targets, BitrateLimits limits) {
  if (viewer_targets.empty()) return limits.max_kbps;
  const int slowest = *std::min_element(viewer_targets.begin(), viewer_targets.end());
  return std::clamp(slowest, limits.min_kbps, limits.max_kbps);
}

}  // namespace voxl::stream
