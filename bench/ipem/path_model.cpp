#include "path_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace voxl::bench {

PathModel::PathModel(PathSettings settings, Time start)
    : settings_(std::move(settings)),
      start_(start),
      loss_(settings_.loss, settings_.mean_burst, settings_.seed),
      // Its own stream, so jitter does not change which packets are lost.
      jitter_random_(settings_.seed ^ 0x9e3779b97f4a7c15ULL),
      link_free_at_(start) {}

double PathModel::mbps_at(Time now) const {
  double mbps = settings_.mbps;
  for (const RateStep& step : settings_.schedule) {
    if (start_ + step.at > now) break;
    mbps = step.mbps;
  }
  return mbps;
}

size_t PathModel::queued_bytes(Time now) {
  while (!queue_.empty() && queue_.front().done <= now) {
    queue_bytes_ -= queue_.front().bytes;
    queue_.pop_front();
  }
  return queue_bytes_;
}

PathModel::Verdict PathModel::offer(size_t bytes, Time now) {
  ++counts_.offered;
  Verdict v;
  // Tail drop: the router has no room for it.
  if (queued_bytes(now) + bytes > settings_.queue_bytes) {
    ++counts_.queue_full;
    v.fate = Fate::kQueueFull;
    return v;
  }
  const Time begin = std::max(now, link_free_at_);
  const double mbps = mbps_at(begin);
  const Time on_wire = mbps > 0 ? Time(int64_t(std::llround(double(bytes) * 8 * 1e3 / mbps))) : Time(0);
  link_free_at_ = begin + on_wire;
  if (on_wire > Time(0)) {
    queue_.push_back({link_free_at_, bytes});
    queue_bytes_ += bytes;
  }
  // Lost on the link after the queue: it took its share of the rate.
  if (loss_.lose()) {
    ++counts_.lost;
    v.fate = Fate::kLost;
    return v;
  }
  Time jitter{0};
  if (settings_.jitter > Time(0))
    jitter = Time(std::uniform_int_distribution<int64_t>(0, settings_.jitter.count())(jitter_random_));
  Time at = link_free_at_ + settings_.delay + jitter;
  if (!settings_.reorder) at = std::max(at, last_delivery_);
  last_delivery_ = std::max(last_delivery_, at);
  ++counts_.delivered;
  counts_.bytes_delivered += bytes;
  v.deliver_at = at;
  return v;
}

}  // namespace voxl::bench
