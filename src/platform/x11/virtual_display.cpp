#include "platform/x11/virtual_display.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <stdexcept>

namespace voxl::platform::x11 {

std::string make_segment_private(int shmid, unsigned expected_attaches) {
  const std::string seg = "framebuffer segment " + std::to_string(shmid);
  shmid_ds ds{};
  if (shmctl(shmid, IPC_STAT, &ds) != 0) return seg + ": " + std::strerror(errno);
  ds.shm_perm.mode = (ds.shm_perm.mode & ~0777u) | 0600u;
  if (shmctl(shmid, IPC_SET, &ds) != 0) return seg + ": cannot set mode 0600: " + std::strerror(errno);
  shmid_ds now{};
  if (shmctl(shmid, IPC_STAT, &now) != 0) return seg + ": " + std::strerror(errno);
  if ((now.shm_perm.mode & 0777u) != 0600u) return seg + ": mode did not change to 0600";
  if (now.shm_nattch > expected_attaches)
    return seg + ": attached by " + std::to_string(now.shm_nattch - expected_attaches) +
           " other process(es) before it was made private";
  return {};
}

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
  if (find_on_path(o.program).empty())
    throw std::runtime_error(o.program + " not found on PATH (install xvfb)");
  if (o.private_authority) authority_ = std::make_unique<PrivateAuthority>();
  log_fd_ = memfd_create("xvfb-log", MFD_CLOEXEC);
  if (log_fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) {
    close(log_fd_);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }

  // The child sees the pipe as fd 3 and the log as stderr.
  ChildOptions co;
  co.argv = {o.program, "-displayfd", "3", "-screen", "0",
             std::to_string(o.size.width) + "x" + std::to_string(o.size.height) + "x" +
                 std::to_string(o.depth),
             "-noreset"};
  if (o.number) co.argv.insert(co.argv.begin() + 1, ":" + std::to_string(*o.number));
  if (o.shmem_framebuffer) co.argv.push_back("-shmem");
  if (!o.mit_shm) co.argv.insert(co.argv.end(), {"-extension", "MIT-SHM"});
  if (o.listen_tcp) co.argv.insert(co.argv.end(), {"-listen", "tcp"});
  else co.argv.insert(co.argv.end(), {"-nolisten", "tcp"});
  if (authority_) co.argv.insert(co.argv.end(), {"-auth", authority_->file()});
  co.argv.insert(co.argv.end(), o.extra_args.begin(), o.extra_args.end());
  co.fds = {{2, log_fd_}, {3, ready[1]}};
  try {
    server_ = std::make_unique<ChildProcess>(co);
  } catch (...) {
    close(ready[0]);
    close(ready[1]);
    close(log_fd_);
    throw;
  }
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
    server_->stop(std::chrono::milliseconds(0));
    if (auto id = parse_xvfb_shmid(out)) shmctl(*id, IPC_RMID, nullptr);
    close(log_fd_);
    throw std::runtime_error(o.program + " did not start: " + (out.empty() ? "no output" : out));
  }
  number_ = std::atoi(number.c_str());
  if (o.shmem_framebuffer) {
    shmid_ = parse_xvfb_shmid(output());
    // Xvfb makes it 0777; only Xvfb itself has it attached yet.
    if (shmid_) framebuffer_warning_ = make_segment_private(*shmid_, 1);
    else framebuffer_warning_ = "Xvfb did not say which segment holds its framebuffer";
    // Marked for removal now, the kernel frees the framebuffer when Xvfb
    // goes, however it goes; Linux still lets readers attach it meanwhile.
    if (shmid_) shmctl(*shmid_, IPC_RMID, nullptr);
  }
}

VirtualDisplay::~VirtualDisplay() {
  server_->stop();
  if (log_fd_ >= 0) close(log_fd_);
}

std::string VirtualDisplay::authority_file() const { return authority_ ? authority_->file() : std::string(); }

pid_t VirtualDisplay::pid() const { return server_->pid(); }

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

}  // namespace voxl::platform::x11
