#include "wayland_test_support.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <stdexcept>

namespace voxl::testing {

std::unique_ptr<platform::wayland::HeadlessCompositor> start_sway(Size size) {
  platform::wayland::HeadlessCompositorOptions o;
  o.size = size;
  return std::make_unique<platform::wayland::HeadlessCompositor>(o);
}

ProbeProgram::ProbeProgram(const platform::wayland::HeadlessCompositor& sway, uint32_t colour) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  platform::OwnedFile in_read(in[0]), out_write(out[1]);
  to_probe_ = platform::OwnedFile(in[1]);
  from_probe_ = platform::OwnedFile(out[0]);
  char hex[16];
  std::snprintf(hex, sizeof hex, "%06x", colour);
  platform::ChildOptions co;
  co.argv = sway.as_user({VOXL_WAYLAND_PROBE, hex});
  co.env = sway.program_environment();
  co.fds = {{0, in_read.get()}, {1, out_write.get()}};
  co.quiet = false;
  process_ = std::make_unique<platform::ChildProcess>(co);
  if (next_line("ready").empty()) throw std::runtime_error("the Wayland probe did not say it was ready");
}

ProbeProgram::~ProbeProgram() {
  to_probe_ = platform::OwnedFile();  // its stdin closes: it ends
  process_.reset();
}

void ProbeProgram::draw(const std::string& command) {
  const std::string line = command + "\n";
  if (write(to_probe_.get(), line.data(), line.size()) != ssize_t(line.size()))
    throw std::runtime_error("cannot write to the Wayland probe");
  if (next_line("drawn").empty()) throw std::runtime_error("the Wayland probe did not draw '" + command + "'");
}

std::string ProbeProgram::next_line(const std::string& prefix, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    for (size_t nl; (nl = buffered_.find('\n')) != std::string::npos;) {
      std::string line = buffered_.substr(0, nl);
      buffered_.erase(0, nl + 1);
      if (line.rfind(prefix, 0) == 0) return line;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return {};
    pollfd p{from_probe_.get(), POLLIN, 0};
    if (poll(&p, 1, int(left.count())) <= 0) continue;
    char buf[1024];
    const ssize_t n = read(from_probe_.get(), buf, sizeof buf);
    if (n <= 0) return {};
    buffered_.append(buf, size_t(n));
  }
}

std::vector<std::string> ProbeProgram::lines(const std::string& prefix, size_t count,
                                             std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::vector<std::string> out;
  while (out.size() < count) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    std::string line = left.count() > 0 ? next_line(prefix, left) : std::string();
    if (line.empty()) break;
    out.push_back(std::move(line));
  }
  return out;
}

std::string run_in(const platform::wayland::HeadlessCompositor& sway, std::vector<std::string> argv,
                   const std::string& input, std::chrono::milliseconds limit) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  platform::OwnedFile in_read(in[0]), in_write(in[1]), out_read(out[0]), out_write(out[1]);
  platform::ChildOptions co;
  co.argv = sway.as_user(std::move(argv));
  co.env = sway.program_environment();
  co.fds = {{0, in_read.get()}, {1, out_write.get()}};
  co.quiet = false;
  platform::ChildProcess child(co);
  in_read = platform::OwnedFile();
  out_write = platform::OwnedFile();
  if (!input.empty() && write(in_write.get(), input.data(), input.size()) != ssize_t(input.size()))
    throw std::runtime_error("cannot write to the program");
  in_write = platform::OwnedFile();
  std::string got;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return {};
    pollfd p{out_read.get(), POLLIN, 0};
    if (poll(&p, 1, int(left.count())) <= 0) continue;
    char buf[4096];
    const ssize_t n = read(out_read.get(), buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, size_t(n));
  }
  platform::wait_child_exit(child.pid(), limit);
  return got;
}

std::unique_ptr<platform::ChildProcess> start_in(const platform::wayland::HeadlessCompositor& sway,
                                                 std::vector<std::string> argv, const std::string& input) {
  int in[2];
  if (pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  platform::OwnedFile in_read(in[0]), in_write(in[1]);
  platform::ChildOptions co;
  co.argv = sway.as_user(std::move(argv));
  co.env = sway.program_environment();
  co.fds = {{0, in_read.get()}};
  co.quiet = false;
  auto child = std::make_unique<platform::ChildProcess>(co);
  // Small inputs fit the pipe's buffer: written whole before it reads.
  if (!input.empty() && write(in_write.get(), input.data(), input.size()) != ssize_t(input.size()))
    throw std::runtime_error("cannot write to the program");
  return child;
}

Logger quiet_log() {
  auto log = make_stderr_logger("wayland-test");
  log->set_level(spdlog::level::warn);
  return log;
}

}  // namespace voxl::testing
