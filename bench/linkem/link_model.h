// One direction of an emulated slow link: a bottleneck that serialises
// bytes at a fixed rate, a queue in front of it, and a fixed propagation
// delay after it. Bytes are cut into TCP-sized packets, so the first packet
// of a burst arrives after its own serialisation time, not the burst's.
//
// The queue is measured in time (its backlog at the link rate): while the
// backlog is at or past `queue`, the link accepts nothing, and the proxy
// stops reading from the sender, whose socket buffer then fills: TCP's own
// backpressure, as behind a real bottleneck. Nothing is dropped.
//
// Pure logic on explicit times; one thread at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace voxl::bench {

class LinkModel {
 public:
  using Time = std::chrono::nanoseconds;  // any monotonic origin
  static constexpr size_t kPacketBytes = 1448;  // a TCP segment on a 1500-byte MTU

  // `mbps` <= 0: no bandwidth cap.
  LinkModel(double mbps, Time one_way_delay, Time queue);

  // Offers one packet (at most kPacketBytes) at `now`; returns when its last
  // byte reaches the far end.
  Time send_packet(size_t bytes, Time now);
  // The queue's backlog at `now`: how long the link stays busy.
  Time backlog(Time now) const;
  bool accepting(Time now) const { return backlog(now) < queue_; }
  // The earliest time at or after `now` when accepting() holds.
  Time accepting_at(Time now) const;
  // From now on, `mbps` (<= 0: no cap); what is queued keeps its times.
  void set_mbps(double mbps);

 private:
  Time serialisation(size_t bytes) const;

  double bits_per_ns_;
  Time delay_;
  Time queue_;
  Time link_free_at_{0};  // when the bottleneck finishes what it holds
};

}  // namespace voxl::bench
