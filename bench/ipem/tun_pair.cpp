#include "tun_pair.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace voxl::bench {
namespace {

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

// A TUN device (IP packets, no extra header) named `name` in this namespace.
int open_tun(const std::string& name) {
  const int fd = ::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(errno_text("cannot open /dev/net/tun (run as root)"));
  ifreq ifr{};
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  std::strncpy(ifr.ifr_name, name.c_str(), IFNAMSIZ - 1);
  if (::ioctl(fd, TUNSETIFF, &ifr) < 0) {
    const std::string error = errno_text("cannot make the TUN device " + name);
    ::close(fd);
    throw std::runtime_error(error);
  }
  return fd;
}

}  // namespace

void run_ip(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  std::string program = "ip";
  argv.push_back(program.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Its error goes to a pipe, for the message.
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) < 0) throw std::runtime_error(errno_text("pipe"));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "ip", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  std::string said;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0 && said.size() < 4096;) said.append(buf, size_t(n));
  ::close(fds[0]);
  std::string line = "ip";
  for (const std::string& a : args) line += " " + a;
  if (spawned != 0) throw std::runtime_error("cannot run '" + line + "': " + std::strerror(spawned));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    throw std::runtime_error("'" + line + "' failed: " + said);
  }
}

TunPair::TunPair(TunSide a, TunSide b, int mtu) : a_(std::move(a)), b_(std::move(b)) {
  try {
    // Named for this process: two runs never meet in the root namespace.
    const std::string tag = std::to_string(::getpid() % 1000000);
    const std::string dev_a = "ipem" + tag + "a", dev_b = "ipem" + tag + "b";
    for (const TunSide* side : {&a_, &b_}) {
      if (side->netns.empty()) continue;
      run_ip({"netns", "add", side->netns});
      made_.push_back(side->netns);
    }
    fd_a_ = open_tun(dev_a);
    fd_b_ = open_tun(dev_b);
    for (auto [side, dev] : {std::pair{&a_, dev_a}, std::pair{&b_, dev_b}}) {
      // `ip` in the side's namespace, or in this one for a side without.
      auto in_side = [side = side](std::vector<std::string> args) {
        if (!side->netns.empty()) args.insert(args.begin(), {"-n", side->netns});
        run_ip(args);
      };
      if (!side->netns.empty()) {
        run_ip({"link", "set", dev, "netns", side->netns});
        in_side({"link", "set", "lo", "up"});
      }
      // IPv4 alone: no IPv6 link-local chatter on the emulated path.
      in_side({"link", "set", dev, "addrgenmode", "none"});
      in_side({"addr", "add", side->address + "/24", "dev", dev});
      // A deep queue in front of the relay: a relay late on a loaded machine
      // should not add losses the link never chose.
      in_side({"link", "set", dev, "mtu", std::to_string(mtu), "txqueuelen", "8192", "up"});
    }
  } catch (...) {
    teardown();
    throw;
  }
}

TunPair::~TunPair() { teardown(); }

void TunPair::teardown() {
  for (int* fd : {&fd_a_, &fd_b_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  for (const std::string& ns : made_) {
    try {
      run_ip({"netns", "del", ns});
    } catch (const std::exception&) {
      // Gone already, or busy: nothing more to do here.
    }
  }
  made_.clear();
}

}  // namespace voxl::bench
