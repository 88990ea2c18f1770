#include "platform/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <set>
#include <string_view>
#include <stdexcept>
#include <type_traits>

extern char** environ;

static_assert(std::is_same_v<pid_t, voxl::platform::ProcessId>);

namespace voxl::platform {

std::string find_on_path(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0 ? program : "";
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

namespace {

// Closes every descriptor from `from` up to and including `to`. Async-signal
// safe: close_range(2) when the kernel has it (5.9+), else one close() per
// number up to the descriptor limit, which the caller read before fork.
void close_fds(int from, int to, int limit) {
  if (from > to) return;
#ifdef SYS_close_range
  if (syscall(SYS_close_range, unsigned(from), unsigned(to), 0u) == 0) return;
#endif
  for (int fd = from; fd <= to && fd < limit; ++fd) close(fd);
}

}  // namespace

bool wait_child_exit(ProcessId pid, std::chrono::milliseconds limit) {
  int status = 0;
  const int pidfd = int(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd >= 0) {
    pollfd p{pidfd, POLLIN, 0};
    while (poll(&p, 1, int(limit.count())) < 0 && errno == EINTR) {
    }
    close(pidfd);
  }
  const pid_t r = waitpid(pid, &status, pidfd >= 0 ? WNOHANG : 0);
  return r == pid || (r < 0 && errno == ECHILD);
}

ChildProcess::ChildProcess(const ChildOptions& o) {
  if (o.argv.empty()) throw std::invalid_argument("ChildProcess needs a program");
  const std::string exe = find_on_path(o.argv[0]);
  if (exe.empty()) throw std::runtime_error(o.argv[0] + " not found on PATH");

  // Everything the child needs is prepared here: after fork only
  // async-signal-safe calls are allowed.
  std::vector<std::string> args = o.argv;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // What the service manager set speaks to voxl alone: an Xvfb built with
  // systemd support would otherwise say READY=1 for voxl.
  static constexpr std::string_view kServiceManagerOnly[] = {"NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID",
                                                             "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID"};
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    const std::string name = entry.substr(0, entry.find('='));
    if (std::find(std::begin(kServiceManagerOnly), std::end(kServiceManagerOnly), name) !=
        std::end(kServiceManagerOnly))
      continue;
    bool replaced = false;
    for (const auto& add : o.env) replaced |= add.substr(0, add.find('=')) == name;
    if (!replaced) env_strings.push_back(entry);
  }
  env_strings.insert(env_strings.end(), o.env.begin(), o.env.end());
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const int devnull = o.quiet ? open("/dev/null", O_RDWR | O_CLOEXEC) : -1;
  const pid_t parent = getpid();
  // The descriptors the child keeps above 2, in order: every other one is
  // closed before exec, so no socket, pipe or file of voxl's (close-on-exec
  // or not) reaches the program.
  std::set<int> kept_set;
  for (const auto& [child_fd, parent_fd] : o.fds)
    if (child_fd > 2) kept_set.insert(child_fd);
  const std::vector<int> kept(kept_set.begin(), kept_set.end());
  rlimit nofile{};
  const int fd_limit = getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY
                           ? int(std::min<rlim_t>(nofile.rlim_cur, 1 << 20))
                           : 1 << 16;

  pid_ = fork();
  if (pid_ < 0) {
    const int e = errno;
    if (devnull >= 0) close(devnull);
    throw std::runtime_error(std::string("fork: ") + std::strerror(e));
  }
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);
    setpgid(0, 0);  // a terminal's Ctrl-C reaches voxl, which then stops us
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);  // voxl blocks signals it waits for
    if (devnull >= 0)
      for (int fd = 0; fd <= 2; ++fd) dup2(devnull, fd);
    for (const auto& [child_fd, parent_fd] : o.fds) {
      if (child_fd == parent_fd) fcntl(child_fd, F_SETFD, 0);  // keep it across exec
      else dup2(parent_fd, child_fd);
    }
    int from = 3;
    for (const int fd : kept) {
      close_fds(from, fd - 1, fd_limit);
      from = fd + 1;
    }
    close_fds(from, ~0U >> 1, fd_limit);
    execve(exe.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  if (devnull >= 0) close(devnull);
}

ChildProcess::~ChildProcess() { stop(); }

void ChildProcess::stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return;
  kill(-pid_, SIGTERM);
  kill(pid_, SIGTERM);
  if (!wait_child_exit(pid_, grace)) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    wait_child_exit(pid_, std::chrono::seconds(5));
  }
  pid_ = -1;
}

bool ChildProcess::exited() {
  if (pid_ <= 0) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    return true;
  }
  return false;
}

}  // namespace voxl::platform
