// Moves IP packets between two TUN descriptors through a PathModel each
// way (a -> b is "down", b -> a is "up"): reads what arrives, asks the model
// its fate, holds each delivered packet until its time and writes it to the
// other side. Waits in ppoll for a packet, the next delivery or a signal
// (signalfd); never spins.
//
// Bounded: packets in flight per direction are capped in bytes (what the
// model's queue and the delay can hold, with room to spare); past it a
// packet is dropped and counted as an overflow, which a sane profile never
// reaches.
//
// Threads: one, the caller's.
#pragma once

#include <chrono>
#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include "path_model.h"

namespace voxl::bench {

class PacketRelay {
 public:
  using Clock = std::chrono::steady_clock;

  PacketRelay(int fd_a, int fd_b, PathSettings down, PathSettings up, Clock::time_point start);

  // Relays until a signal arrives on `signal_fd` or `until` passes.
  void run(int signal_fd, Clock::time_point until);

  // The counts of both directions as one JSON object.
  std::string stats_json() const;

 private:
  struct Held {
    PathModel::Time at;
    uint64_t order;
    std::vector<unsigned char> packet;
    bool operator>(const Held& o) const { return at != o.at ? at > o.at : order > o.order; }
  };
  struct Direction {
    int from = -1, to = -1;
    PathModel model;
    std::priority_queue<Held, std::vector<Held>, std::greater<Held>> held;
    size_t held_bytes = 0;
    uint64_t overflow = 0;
    uint64_t write_errors = 0;
  };

  void take(Direction& d, PathModel::Time now);
  void deliver(Direction& d, PathModel::Time now);
  static PathModel::Time since_epoch(Clock::time_point t);

  Direction down_, up_;
  uint64_t order_ = 0;
  std::vector<unsigned char> read_buffer_;  // one packet as read, reused
};

}  // namespace voxl::bench
