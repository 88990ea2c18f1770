// File-descriptor housekeeping for a server that holds many sockets and
// starts child processes: the open-file limit raised to what the system
// allows, and descriptors marked close-on-exec so children inherit none.
// POSIX only.
//
// Threads: any; raise_fd_limit() is meant for start-up, before the first
// socket is accepted.
#pragma once

#include <cstdint>
#include <string>

namespace voxl {

struct FdLimit {
  uint64_t soft = 0;  // the limit in force afterwards
  uint64_t hard = 0;
  std::string error;  // why it could not be read or raised; empty when fine
};

// Raises RLIMIT_NOFILE's soft limit to its hard limit.
FdLimit raise_fd_limit();

// Sets FD_CLOEXEC on `fd`; false (errno set) when fcntl fails.
bool set_close_on_exec(int fd);

}  // namespace voxl
