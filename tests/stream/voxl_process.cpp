#include "voxl_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace voxl::testing {

namespace {

// Waits up to `limit` for `pid` to become waitable, without reaping it.
bool wait_exit_no_reap(pid_t pid, std::chrono::milliseconds limit, siginfo_t& info) {
  const int pidfd = int(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd >= 0) {
    pollfd p{pidfd, POLLIN, 0};
    while (poll(&p, 1, int(limit.count())) < 0 && errno == EINTR) {
    }
    close(pidfd);
  }
  std::memset(&info, 0, sizeof info);
  // WNOWAIT leaves the child to ChildProcess, which reaps it.
  return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

}  // namespace

VoxlProcess::VoxlProcess(const std::string& display, const std::vector<std::string>& extra_args,
                         std::chrono::milliseconds limit, const std::vector<std::string>& env,
                         const std::string& addr) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  log_fd_ = fds[0];
  wake_fd_ = eventfd(0, EFD_CLOEXEC);
  platform::ChildOptions o;
  o.argv = {VOXL_BINARY, "--port=0"};
  if (!display.empty()) o.argv.insert(o.argv.begin() + 1, "--display=" + display);
  const bool own_addr = std::any_of(extra_args.begin(), extra_args.end(),
                                    [](const std::string& a) { return a.rfind("--addr=", 0) == 0; });
  if (!own_addr) o.argv.push_back("--addr=" + addr);
  o.argv.insert(o.argv.end(), extra_args.begin(), extra_args.end());
  o.fds = {{2, fds[1]}};
  o.env = env;
  o.quiet = false;
  try {
    child_ = std::make_unique<platform::ChildProcess>(o);
  } catch (...) {
    close(fds[1]);
    close(log_fd_);
    close(wake_fd_);
    throw;
  }
  close(fds[1]);  // only the child writes: its exit ends the log
  reader_ = std::thread([this] { read_log(); });

  // spdlog adds a prefix; the URL is the stable part of the line.
  static const std::regex serving(R"(voxl is serving https?://[^ ]*:(\d+)/(\?token=([0-9a-f]+))? \(display )");
  std::unique_lock lock(mu_);
  std::smatch m;
  changed_.wait_for(lock, limit, [&] { return std::regex_search(log_, m, serving) || log_ended_; });
  if (std::regex_search(log_, m, serving)) {
    port_ = uint16_t(std::stoi(m[1].str()));
    token_ = m[3].str();
    return;
  }
  const std::string output = log_;
  lock.unlock();
  shut_down();  // the destructor does not run for a constructor that throws
  throw std::runtime_error("voxl did not start serving; its output:\n" + output);
}

VoxlProcess::~VoxlProcess() { shut_down(); }

void VoxlProcess::shut_down() {
  stop();
  if (wake_fd_ >= 0) {
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(wake_fd_, &one, sizeof one);
  }
  if (reader_.joinable()) reader_.join();
  if (log_fd_ >= 0) close(log_fd_);
  if (wake_fd_ >= 0) close(wake_fd_);
  log_fd_ = wake_fd_ = -1;
}

pid_t VoxlProcess::pid() const { return child_ ? child_->pid() : -1; }

void VoxlProcess::read_log() {
  char buf[4096];
  for (;;) {
    pollfd p[2] = {{log_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    // Whatever is in the pipe is read before a wake-up counts: it may be
    // the report of a crash at exit.
    if (!p[0].revents) break;
    const ssize_t n = read(log_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::lock_guard lock(mu_);
    log_.append(buf, size_t(n));
    changed_.notify_all();
  }
  std::lock_guard lock(mu_);
  log_ended_ = true;
  changed_.notify_all();
}

std::string VoxlProcess::log() const {
  std::lock_guard lock(mu_);
  return log_;
}

bool VoxlProcess::wait_for_log(std::string_view text, std::chrono::milliseconds limit) const {
  std::unique_lock lock(mu_);
  return changed_.wait_for(lock, limit,
                           [&] { return log_.find(text) != std::string::npos || log_ended_; }) &&
         log_.find(text) != std::string::npos;
}

long VoxlProcess::rss_kib() const {
  std::ifstream in("/proc/" + std::to_string(pid()) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

int VoxlProcess::stop(std::chrono::milliseconds limit, int signal) {
  if (!child_) return exit_status_;
  const pid_t p = child_->pid();
  kill(p, signal);
  siginfo_t info;
  if (wait_exit_no_reap(p, limit, info)) {
    exit_status_ = info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
    child_->exited();  // reaps it
  } else {
    exit_status_ = -1;
    child_->stop(std::chrono::seconds(1));  // SIGKILL follows
  }
  child_.reset();
  // The log is complete once the pipe reports end of file; a grandchild
  // holding it open would only cost this wait.
  std::unique_lock lock(mu_);
  changed_.wait_for(lock, std::chrono::seconds(5), [this] { return log_ended_; });
  return exit_status_;
}

}  // namespace voxl::testing
