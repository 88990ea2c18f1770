#include "xclip.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace voxl::testing {

XclipOutput run_xclip(const std::string& display, std::vector<std::string> args, const std::string& in) {
  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) || pipe2(out_pipe, O_CLOEXEC)) throw std::runtime_error("pipe");
  platform::ChildOptions o;
  o.argv = {"xclip", "-selection", "clipboard"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.env = {"DISPLAY=" + display};
  o.fds = {{0, in_pipe[0]}, {1, out_pipe[1]}};
  platform::ChildProcess child(o);
  close(in_pipe[0]);
  close(out_pipe[1]);
  std::thread writer([fd = in_pipe[1], in] {
    size_t off = 0;
    while (off < in.size()) {
      const ssize_t n = write(fd, in.data() + off, in.size() - off);
      if (n <= 0) break;
      off += size_t(n);
    }
    close(fd);
  });
  XclipOutput r;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(out_pipe[0], buf, sizeof buf);
    if (n <= 0) break;
    r.out.append(buf, size_t(n));
  }
  close(out_pipe[0]);
  writer.join();
  r.exited = platform::wait_child_exit(child.pid(), std::chrono::seconds(30));
  return r;
}

std::unique_ptr<platform::ChildProcess> xclip_owner(const std::string& display, const std::string& data,
                                                    const std::string& target) {
  int in_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC)) throw std::runtime_error("pipe");
  platform::ChildOptions o;
  o.argv = {"xclip", "-quiet", "-selection", "clipboard", "-i"};
  if (!target.empty()) o.argv.insert(o.argv.end(), {"-t", target});
  o.env = {"DISPLAY=" + display};
  o.fds = {{0, in_pipe[0]}};
  auto child = std::make_unique<platform::ChildProcess>(o);
  close(in_pipe[0]);
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = write(in_pipe[1], data.data() + off, data.size() - off);
    if (n <= 0) break;
    off += size_t(n);
  }
  close(in_pipe[1]);
  return child;
}

}  // namespace voxl::testing
