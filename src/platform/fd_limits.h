// File-handle housekeeping for a server that holds many sockets and starts
// child processes: the open-file limit raised to what the system allows,
// and sockets kept out of children.
//
// POSIX: RLIMIT_NOFILE and FD_CLOEXEC. Windows: sockets have no per-process
// descriptor limit (the C runtime's stdio limit does not apply to them), so
// raise_fd_limit() reports `applicable = false`; handles are not inherited
// unless a child is started with inheritance asked for, and
// set_close_on_exec() clears HANDLE_FLAG_INHERIT on the socket to make sure.
//
// Threads: any; raise_fd_limit() is meant for start-up, before the first
// socket is accepted.
#pragma once

#include <cstdint>
#include <string>

namespace voxl::platform {

struct FdLimit {
  bool applicable = true;  // false where the system has no such limit
  uint64_t soft = 0;       // the limit in force afterwards
  uint64_t hard = 0;
  std::string error;  // why it could not be read or raised; empty when fine
};

// Raises RLIMIT_NOFILE's soft limit to its hard limit (POSIX); reports not
// applicable on Windows.
FdLimit raise_fd_limit();

// A socket's native handle as Asio gives it: int on POSIX, SOCKET
// (an unsigned pointer-sized integer) on Windows.
using NativeSocket = std::uintptr_t;

// Keeps `socket` out of child processes: FD_CLOEXEC on POSIX, no
// HANDLE_FLAG_INHERIT on Windows; false when the system call fails.
bool set_close_on_exec(NativeSocket socket);

}  // namespace voxl::platform
