// What the kernel's TCP has measured of one connection's path: its
// smoothed and least round-trip times. TCP takes no round-trip sample from a retransmitted segment (and
// with SACK the segments after a lost one are timed as they arrive), so
// its RTT shows a queue at the bottleneck but not the wait behind a lost
// packet, which delays every message queued after it. TCP_INFO on Linux;
// nullopt where the system does not say. Any thread; one system call.
#pragma once

#include <cstdint>
#include <optional>

namespace voxl::platform {

struct TcpPath {
  double srtt_ms = 0;
  double min_rtt_ms = 0;  // over the kernel's window (minutes)
};

// `socket`: the native socket (a descriptor, or a SOCKET on Windows).
std::optional<TcpPath> tcp_path(std::intptr_t socket);

}  // namespace voxl::platform
