#include "platform/child_process.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

namespace voxl {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The descriptors `pid` has open once it runs `program` (after exec) and
// they match `want`, or the last set seen after 30 s: the dynamic loader
// opens and closes a few of its own while the program starts.
std::set<int> fds_after_exec(pid_t pid, const std::string& program, const std::set<int>& want) {
  const fs::path proc = "/proc/" + std::to_string(pid);
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  std::set<int> fds;
  for (;;) {
    std::error_code ec;
    fds.clear();
    if (fs::read_symlink(proc / "exe", ec) == fs::path(program))
      for (const auto& e : fs::directory_iterator(proc / "fd", ec)) fds.insert(std::stoi(e.path().filename().string()));
    if (fds == want || std::chrono::steady_clock::now() > deadline) return fds;
    std::this_thread::sleep_for(10ms);
  }
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

TEST(ChildProcess, InheritsOnlyTheStandardAndTheListedDescriptors) {
  const std::string sleep = platform::find_on_path("sleep");
  ASSERT_FALSE(sleep.empty());
  // Open descriptors the child must not see: a pipe and a socket without
  // close-on-exec, a file with it.
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  Fd r{p[0]}, w{p[1]};
  Fd sock{socket(AF_UNIX, SOCK_STREAM, 0)};
  ASSERT_GE(sock.fd, 0);
  Fd file{open("/dev/null", O_RDONLY | O_CLOEXEC)};
  Fd high{fcntl(w.fd, F_DUPFD, 200)};
  ASSERT_GE(high.fd, 200);
  Fd passed{open("/dev/null", O_RDONLY | O_CLOEXEC)};

  platform::ChildOptions o;
  o.argv = {fs::canonical(sleep).string(), "60"};
  o.fds = {{7, passed.fd}};
  platform::ChildProcess child(o);
  const std::set<int> want{0, 1, 2, 7};
  EXPECT_EQ(fds_after_exec(child.pid(), fs::canonical(sleep).string(), want), want);
}

TEST(ChildProcess, KeepsADescriptorPassedUnderItsOwnNumber) {
  const std::string sleep = fs::canonical(platform::find_on_path("sleep")).string();
  Fd passed{open("/dev/null", O_RDONLY | O_CLOEXEC)};
  Fd other{open("/dev/null", O_RDONLY)};
  platform::ChildOptions o;
  o.argv = {sleep, "60"};
  o.fds = {{passed.fd, passed.fd}};
  platform::ChildProcess child(o);
  const std::set<int> want{0, 1, 2, passed.fd};
  EXPECT_EQ(fds_after_exec(child.pid(), sleep, want), want);
}

}  // namespace
}  // namespace voxl
