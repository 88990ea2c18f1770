// A child process: a program found on PATH, extra environment, chosen
// standard handles, and nothing left behind when voxl goes. The service
// manager's variables (NOTIFY_SOCKET, LISTEN_*, WATCHDOG_*) are voxl's and
// are not passed on.
//
// POSIX (platform/posix): fork+exec, the child in its own process group and
// told to die with the thread that started it (PR_SET_PDEATHSIG). The child
// inherits descriptors 0-2 and those listed in `fds`, nothing else: every
// other descriptor is closed before exec (close_range, or a loop up to
// RLIMIT_NOFILE on kernels without it).
// Windows (platform/windows/system): CreateProcessW in a job object that
// kills the child when the job's last handle (ours) closes; only the three
// standard handles are passed, so `fds` may name child descriptors 0-2 only
// (the parent side is a C runtime descriptor). stop() terminates the job:
// Windows has no polite signal for a console-less child.
//
// Threads: start and stop on one thread, one that outlives the child (the
// POSIX death signal follows the starting thread, not the process).
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace voxl::platform {

// pid_t on POSIX; the process id (a DWORD, always small) on Windows.
using ProcessId = int;

struct ChildOptions {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH
  std::vector<std::string> env;   // "NAME=value" added to (or replacing in) ours
  // {child fd, parent fd}: the parent's descriptor appears as the child's.
  // Unlisted descriptors 0-2 go to the null device when `quiet`.
  std::vector<std::pair<int, int>> fds;
  bool quiet = true;
};

class ChildProcess {
 public:
  // Throws std::runtime_error when the program is not found or cannot be
  // started, std::invalid_argument for options the platform cannot honour.
  explicit ChildProcess(const ChildOptions& options);
  ~ChildProcess();  // stop()
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  ProcessId pid() const { return pid_; }

  // POSIX: SIGTERM to the child's process group, SIGKILL after `grace`;
  // reaps it. Windows: terminates the job and waits up to `grace`.
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(5));

  // Reaps the child if it has exited; true then (without waiting).
  bool exited();

 private:
  ProcessId pid_ = -1;
#ifdef _WIN32
  void* process_ = nullptr;  // the process handle
  void* job_ = nullptr;      // the job object that ends it with us
#endif
};

// Waits up to `limit` for `pid` (our child) to exit and reaps it; true once
// reaped (POSIX: awaited through a pidfd, not by polling; Windows: a wait on
// the process handle).
bool wait_child_exit(ProcessId pid, std::chrono::milliseconds limit);

// The full path of `program` on PATH (or itself if it names a folder; on
// Windows also tried with PATHEXT's extensions); empty when not found.
std::string find_on_path(const std::string& program);

}  // namespace voxl::platform
