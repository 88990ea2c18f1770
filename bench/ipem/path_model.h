// One direction of an emulated IP path, packet by packet: a bottleneck that
// serialises packets at a rate (which may follow a schedule), a queue of a
// bounded number of bytes in front of it that drops what does not fit (a
// router's tail drop), loss on the link after it (Gilbert-Elliott: random
// or in bursts), and a propagation delay with jitter. Jittered packets keep
// their order unless reordering is on, when one may overtake another.
//
// Unlike linkem's TCP proxy, which never drops and pushes back on the
// sender, this sits under the kernel's TCP: the real congestion control
// sees real losses and real queueing.
//
// Pure logic on explicit times; one thread at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "loss_model.h"

namespace voxl::bench {

struct RateStep {
  std::chrono::nanoseconds at{0};  // from the path's start
  double mbps = 0;                 // <= 0: no cap
};

struct PathSettings {
  double mbps = 0;  // <= 0: no cap (until the schedule says otherwise)
  std::vector<RateStep> schedule;  // in time order
  std::chrono::nanoseconds delay{0};   // one way
  std::chrono::nanoseconds jitter{0};  // extra delay, uniform in [0, jitter]
  bool reorder = false;
  size_t queue_bytes = 256 * 1024;
  double loss = 0;         // [0, 1)
  double mean_burst = 1;   // packets; 1: independent losses
  uint64_t seed = 1;
};

class PathModel {
 public:
  using Time = std::chrono::nanoseconds;  // any monotonic origin

  enum class Fate { kDelivered, kLost, kQueueFull };
  struct Verdict {
    Fate fate = Fate::kDelivered;
    Time deliver_at{0};  // when kDelivered
  };
  struct Counts {
    uint64_t offered = 0;
    uint64_t delivered = 0;
    uint64_t lost = 0;
    uint64_t queue_full = 0;
    uint64_t bytes_delivered = 0;
  };

  PathModel(PathSettings settings, Time start);

  // A packet of `bytes` arrives at `now` (not before the previous one's now).
  Verdict offer(size_t bytes, Time now);

  double mbps_at(Time now) const;
  // Bytes waiting for the bottleneck at `now`.
  size_t queued_bytes(Time now);
  const Counts& counts() const { return counts_; }

 private:
  struct Queued {
    Time done;  // when its last bit leaves the bottleneck
    size_t bytes;
  };

  PathSettings settings_;
  Time start_;
  LossModel loss_;
  std::mt19937_64 jitter_random_;
  std::deque<Queued> queue_;  // bounded by settings_.queue_bytes
  size_t queue_bytes_ = 0;
  Time link_free_at_{0};
  Time last_delivery_{0};
  Counts counts_;
};

}  // namespace voxl::bench
