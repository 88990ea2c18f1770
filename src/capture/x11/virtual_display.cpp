#include "capture/x11/virtual_display.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <stdexcept>

namespace voxl::capture::x11 {

namespace {

// Resolves `program` on PATH before forking: after fork only
// async-signal-safe calls are allowed.
std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    std::string candidate = dirs.substr(start, end - start) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

// Reaps `pid`, waiting at most `limit` for it to exit (a pidfd makes the
// exit pollable). True once it is reaped.
bool wait_exit(pid_t pid, std::chrono::milliseconds limit) {
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

}  // namespace

std::optional<int> parse_xvfb_shmid(const std::string& output) {
  static const std::regex re(R"(screen 0 shmid (\d+))");
  std::smatch m;
  if (!std::regex_search(output, m, re)) return std::nullopt;
  int id = 0;
  const std::string digits = m[1].str();
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  return id;
}

VirtualDisplay::VirtualDisplay(const VirtualDisplayOptions& o) {
  const std::string exe = find_program(o.program);
  if (exe.empty()) throw std::runtime_error(o.program + " not found on PATH (install xvfb)");
  log_fd_ = memfd_create("xvfb-log", MFD_CLOEXEC);
  if (log_fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) {
    close(log_fd_);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }

  // The child sees the pipe as fd 3 and the log as stderr.
  std::vector<std::string> args = {exe, "-displayfd", "3", "-screen", "0",
                                   std::to_string(o.size.width) + "x" +
                                       std::to_string(o.size.height) + "x" +
                                       std::to_string(o.depth),
                                   "-noreset"};
  if (o.shmem_framebuffer) args.push_back("-shmem");
  if (!o.mit_shm) args.insert(args.end(), {"-extension", "MIT-SHM"});
  if (o.listen_tcp) args.insert(args.end(), {"-listen", "tcp"});
  else args.insert(args.end(), {"-nolisten", "tcp"});
  args.insert(args.end(), o.extra_args.begin(), o.extra_args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t parent = getpid();
  const int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  pid_ = fork();
  if (pid_ < 0) {
    const int e = errno;
    close(ready[0]);
    close(ready[1]);
    close(log_fd_);
    if (devnull >= 0) close(devnull);
    throw std::runtime_error(std::string("fork: ") + std::strerror(e));
  }
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);
    setpgid(0, 0);  // a terminal's Ctrl-C goes to voxl, which then stops us
    if (devnull >= 0) {
      dup2(devnull, 0);
      dup2(devnull, 1);
    }
    dup2(log_fd_, 2);
    dup2(ready[1], 3);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  if (devnull >= 0) close(devnull);
  close(ready[1]);

  std::string number;
  const auto deadline = std::chrono::steady_clock::now() + o.ready_timeout;
  bool done = false;
  while (!done) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{ready[0], POLLIN, 0};
    const int n = poll(&p, 1, int(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    char buf[32];
    const ssize_t got = read(ready[0], buf, sizeof buf);
    if (got <= 0) break;  // the server exited before it was ready
    number.append(buf, size_t(got));
    done = number.find('\n') != std::string::npos;
  }
  close(ready[0]);
  if (!done) {
    const std::string out = output();
    kill(pid_, SIGKILL);
    wait_exit(pid_, std::chrono::seconds(5));
    if (auto id = parse_xvfb_shmid(out)) shmctl(*id, IPC_RMID, nullptr);
    close(log_fd_);
    throw std::runtime_error(o.program + " did not start: " + (out.empty() ? "no output" : out));
  }
  number_ = std::atoi(number.c_str());
  if (o.shmem_framebuffer) {
    shmid_ = parse_xvfb_shmid(output());
    // Marked for removal now, the kernel frees the framebuffer when Xvfb
    // goes, however it goes; Linux still lets readers attach it meanwhile.
    if (shmid_) shmctl(*shmid_, IPC_RMID, nullptr);
  }
}

VirtualDisplay::~VirtualDisplay() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    if (!wait_exit(pid_, std::chrono::seconds(5))) {
      kill(pid_, SIGKILL);
      wait_exit(pid_, std::chrono::seconds(5));
    }
  }
  // Killed by a signal, Xvfb does not remove its framebuffer segment.
  if (shmid_) shmctl(*shmid_, IPC_RMID, nullptr);
  if (log_fd_ >= 0) close(log_fd_);
}

std::string VirtualDisplay::output() const {
  std::string out;
  char buf[4096];
  off_t off = 0;
  for (;;) {
    const ssize_t n = pread(log_fd_, buf, sizeof buf, off);
    if (n <= 0) break;
    out.append(buf, size_t(n));
    off += n;
  }
  return out;
}

}  // namespace voxl::capture::x11
