#include "link_model.h"

#include <algorithm>
#include <cmath>

namespace voxl::bench {

LinkModel::LinkModel(double mbps, Time one_way_delay, Time queue)
    : bits_per_ns_(mbps > 0 ? mbps * 1e6 / 1e9 : 0), delay_(one_way_delay), queue_(queue) {}

void LinkModel::set_mbps(double mbps) { bits_per_ns_ = mbps > 0 ? mbps * 1e6 / 1e9 : 0; }

LinkModel::Time LinkModel::serialisation(size_t bytes) const {
  if (bits_per_ns_ <= 0) return Time(0);
  return Time(int64_t(std::llround(double(bytes) * 8 / bits_per_ns_)));
}

LinkModel::Time LinkModel::send_packet(size_t bytes, Time now) {
  const Time start = std::max(now, link_free_at_);
  link_free_at_ = start + serialisation(bytes);
  return link_free_at_ + delay_;
}

LinkModel::Time LinkModel::backlog(Time now) const { return std::max(Time(0), link_free_at_ - now); }

LinkModel::Time LinkModel::accepting_at(Time now) const {
  return accepting(now) ? now : link_free_at_ - queue_ + Time(1);
}

}  // namespace voxl::bench
