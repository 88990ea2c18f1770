// A child process started with fork+exec: chosen file descriptors, extra
// environment, its own process group, and told to die with the thread that
// started it (PR_SET_PDEATHSIG) so nothing outlives a crashed parent.
// The child inherits descriptors 0-2 and those listed in `fds`, nothing
// else: every other descriptor is closed before exec (close_range, or a
// loop up to RLIMIT_NOFILE on kernels without it).
//
// Threads: start and stop on one thread, one that outlives the child (the
// death signal follows the starting thread, not the process).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace voxl {

struct ChildOptions {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH
  std::vector<std::string> env;   // "NAME=value" added to (or replacing in) ours
  // {child fd, parent fd}: the parent's descriptor appears as the child's.
  // Unlisted descriptors 0-2 go to /dev/null when `quiet`.
  std::vector<std::pair<int, int>> fds;
  bool quiet = true;
};

class ChildProcess {
 public:
  // Throws std::runtime_error when the program is not found or fork fails.
  explicit ChildProcess(const ChildOptions& options);
  ~ChildProcess();  // stop()
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }

  // SIGTERM to the child's process group, SIGKILL after `grace`; reaps it.
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(5));

  // Reaps the child if it has exited; true then (without waiting).
  bool exited();

 private:
  pid_t pid_ = -1;
};

// Waits up to `limit` for `pid` (our child) to exit and reaps it; true once
// reaped. The exit is awaited through a pidfd, not by polling.
bool wait_child_exit(pid_t pid, std::chrono::milliseconds limit);

// The full path of `program` on PATH (or itself if it has a slash); empty
// when not found.
std::string find_on_path(const std::string& program);

}  // namespace voxl
