// A ceiling on how fast the kernel sends on one TCP socket, spread evenly
// over time (no bursts into a slow link's queue): SO_MAX_PACING_RATE on
// Linux. Other systems have no such option: there it returns false and the
// socket sends as fast as TCP allows. Any thread; one system call.
#pragma once

#include <cstdint>
#include <optional>

namespace voxl::platform {

// `socket`: the native socket (a descriptor, or a SOCKET on Windows).
// `bytes_per_second`: none lifts the ceiling. True when the system took it.
bool set_send_pacing(std::intptr_t socket, std::optional<uint64_t> bytes_per_second);

}  // namespace voxl::platform
