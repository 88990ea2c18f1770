// Figures about another process read from /proc, for the churn, stall and
// soak checks: open file descriptors, resident memory, CPU time, whether it
// still runs, and the SysV shared-memory segments it created or last used.
//
// Pure functions of /proc; any thread.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace voxl::testing {

// Entries of /proc/<pid>/fd; -1 when unreadable.
long open_fds_of(pid_t pid);
// VmRSS of /proc/<pid>/status in KiB; -1 when unreadable.
long rss_kib_of(pid_t pid);
// CPU time the process has used, user and system, in seconds; -1 when
// unreadable.
double cpu_seconds_of(pid_t pid);
// The process exists and is not a zombie.
bool process_alive(pid_t pid);

struct ShmFigures {
  int segments = 0;
  uint64_t bytes = 0;
};
// Segments of /proc/sysvipc/shm whose creator or last user is one of `pids`.
ShmFigures sysv_segments_of(const std::vector<pid_t>& pids);

// Lines of `log` that report a crash or a sanitizer finding (ASan, UBSan,
// std::terminate, a fatal signal); empty when there are none.
std::string crash_reports_in(const std::string& log);

}  // namespace voxl::testing
