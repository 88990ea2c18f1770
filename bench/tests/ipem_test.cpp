// ipem between two real network namespaces, the kernel's own TCP and UDP
// over it. Load can only make the path slower, so the checks are what the
// settings guarantee: nothing arrives sooner than the delay, nothing flows
// faster than the rate, TCP's bytes arrive exact through loss, UDP loses
// about the share asked for, and jittered packets keep their order unless
// reordering is on. Needs root (namespaces, TUN devices), which CI has.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <functional>
#include <future>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace voxl::bench {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr const char* kServer = "10.77.0.1";
constexpr uint16_t kPort = 5201;

// One ipem run with its own namespaces, stopped (SIGINT) by the destructor
// or stop(), which returns its counts line.
class Ipem {
 public:
  explicit Ipem(std::vector<std::string> flags) {
    const std::string tag = std::to_string(::getpid());
    server_ns_ = "voxl-t" + tag + "s";
    viewer_ns_ = "voxl-t" + tag + "v";
    flags.insert(flags.begin(), {VOXL_IPEM_BINARY, "--server-netns", server_ns_, "--viewer-netns", viewer_ns_});
    std::vector<char*> argv;
    for (std::string& f : flags) argv.push_back(f.data());
    argv.push_back(nullptr);
    int fds[2];
    EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    EXPECT_EQ(posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    out_ = fds[0];
    // Its first line: "ready ..." once the namespaces exist.
    ready_ = read_line().rfind("ready ", 0) == 0;
  }
  ~Ipem() { stop(); }

  bool ready() const { return ready_; }
  const std::string& server_ns() const { return server_ns_; }
  const std::string& viewer_ns() const { return viewer_ns_; }

  std::string stop() {
    if (pid_ <= 0) return {};
    ::kill(pid_, SIGINT);
    const std::string counts = read_line();
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    ::close(out_);
    return counts;
  }

 private:
  std::string read_line() {
    std::string line;
    char c;
    while (::read(out_, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }

  std::string server_ns_, viewer_ns_;
  pid_t pid_ = -1;
  int out_ = -1;
  bool ready_ = false;
};

// Runs `fn` on a thread that has entered the namespace `ns`.
std::thread in_netns(const std::string& ns, std::function<void()> fn) {
  return std::thread([ns, fn = std::move(fn)] {
    const int fd = ::open(("/var/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0) << ns;
    ASSERT_EQ(::setns(fd, CLONE_NEWNET), 0) << std::strerror(errno);
    ::close(fd);
    fn();
  });
}

sockaddr_in server_address() {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(kPort);
  ::inet_pton(AF_INET, kServer, &a.sin_addr);
  return a;
}

std::vector<unsigned char> pattern(size_t n) {
  std::vector<unsigned char> v(n);
  uint32_t x = 12345;
  for (auto& b : v) b = static_cast<unsigned char>((x = x * 1103515245 + 12345) >> 16);
  return v;
}

bool root() { return ::geteuid() == 0; }

// A TCP transfer from the viewer's side to the server's: exact bytes,
// never faster than the rate, the handshake never quicker than a round trip.
void tcp_transfer(Ipem& ipem, size_t bytes, double mbps, std::chrono::milliseconds one_way) {
  ASSERT_TRUE(ipem.ready());
  const auto data = pattern(bytes);
  std::vector<unsigned char> got;
  Clock::duration handshake{}, transfer{};
  int listener = -1;
  std::thread server = in_netns(ipem.server_ns(), [&] {
    listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int on = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    const sockaddr_in a = server_address();
    ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0) << std::strerror(errno);
    ASSERT_EQ(::listen(listener, 1), 0);
    const int s = ::accept(listener, nullptr, nullptr);
    ASSERT_GE(s, 0);
    unsigned char buf[65536];
    for (ssize_t n; (n = ::read(s, buf, sizeof buf)) > 0;) got.insert(got.end(), buf, buf + n);
    ::close(s);
  });
  std::thread viewer = in_netns(ipem.viewer_ns(), [&] {
    const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const sockaddr_in a = server_address();
    const auto deadline = Clock::now() + 30s;
    auto begin = Clock::now();
    // The server's thread may not listen yet: refused, try again.
    while (::connect(s, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
      ASSERT_LT(Clock::now(), deadline) << std::strerror(errno);
      std::this_thread::sleep_for(20ms);
      begin = Clock::now();
    }
    handshake = Clock::now() - begin;
    const auto started = Clock::now();
    for (size_t sent = 0; sent < data.size();) {
      const ssize_t n = ::write(s, data.data() + sent, data.size() - sent);
      ASSERT_GT(n, 0) << std::strerror(errno);
      sent += size_t(n);
    }
    ::shutdown(s, SHUT_WR);
    char c;
    (void)::read(s, &c, 1);  // the server's close: everything arrived
    transfer = Clock::now() - started;
    ::close(s);
  });
  viewer.join();
  server.join();
  if (listener >= 0) ::close(listener);
  EXPECT_TRUE(got == data) << got.size() << " of " << data.size() << " bytes, or not the same";
  EXPECT_GE(handshake, 2 * one_way);
  const double floor_s = double(bytes) * 8 / (mbps * 1e6);
  EXPECT_GE(std::chrono::duration<double>(transfer).count(), floor_s * 0.97);
  std::printf("[ ipem ] %zu bytes at %.0f Mbit/s: handshake %.1f ms, transfer %.2f s (the rate allows %.2f s)\n", bytes,
              mbps, std::chrono::duration<double, std::milli>(handshake).count(),
              std::chrono::duration<double>(transfer).count(), floor_s);
}

// Sends `count` numbered datagrams from the viewer's side `gap` apart and
// returns the numbers in the order they arrived.
std::vector<uint32_t> udp_sequence(Ipem& ipem, int count, std::chrono::microseconds gap) {
  std::vector<uint32_t> arrived;
  std::promise<void> listening;
  auto listened = listening.get_future();
  std::thread server = in_netns(ipem.server_ns(), [&] {
    const int s = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    const sockaddr_in a = server_address();
    ASSERT_EQ(::bind(s, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0);
    const timeval quiet{2, 0};  // two seconds with nothing: the sender is done
    ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &quiet, sizeof quiet);
    // Room for every datagram, so a late reader on a loaded machine loses none.
    const int room = 16 << 20;
    ::setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &room, sizeof room);
    listening.set_value();
    uint32_t n;
    while (::recv(s, &n, sizeof n, 0) == sizeof n) arrived.push_back(n);
    ::close(s);
  });
  // The server's thread may have failed before it listened.
  if (listened.wait_for(30s) != std::future_status::ready) {
    server.join();
    ADD_FAILURE() << "the server's side never listened";
    return arrived;
  }
  std::thread viewer = in_netns(ipem.viewer_ns(), [&] {
    const int s = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    const sockaddr_in a = server_address();
    auto next = Clock::now();
    for (uint32_t i = 0; i < uint32_t(count); ++i) {
      std::this_thread::sleep_until(next);
      next += gap;
      ::sendto(s, &i, sizeof i, 0, reinterpret_cast<const sockaddr*>(&a), sizeof a);
    }
    ::close(s);
  });
  viewer.join();
  server.join();
  return arrived;
}

int overtaken(const std::vector<uint32_t>& v) {
  int n = 0;
  uint32_t highest = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0 && v[i] < highest) ++n;
    highest = std::max(highest, v[i]);
  }
  return n;
}

TEST(Ipem, TcpArrivesExactAtNoMoreThanTheRateAfterTheDelay) {
  if (!root()) GTEST_SKIP() << "needs root (network namespaces and TUN devices)";
  Ipem ipem({"--profile", "wifi", "--mbps", "8", "--delay-ms", "15", "--jitter-ms", "0", "--loss", "0"});
  tcp_transfer(ipem, 2'000'000, 8, 15ms);
  const auto counts = nlohmann::json::parse(ipem.stop(), nullptr, false);
  EXPECT_GT(counts["up"]["delivered"].get<int>(), 1000) << counts;
  EXPECT_EQ(counts["up"]["lost"].get<int>(), 0) << counts;
}

TEST(Ipem, TcpRecoversEveryByteThroughBurstyLoss) {
  if (!root()) GTEST_SKIP() << "needs root (network namespaces and TUN devices)";
  Ipem ipem({"--profile", "lte", "--mbps", "20", "--delay-ms", "10", "--jitter-ms", "0", "--loss", "3", "--burst", "3"});
  tcp_transfer(ipem, 1'000'000, 20, 10ms);
  // Some of the transfer's packets were lost, and TCP sent them again.
  const auto counts = nlohmann::json::parse(ipem.stop(), nullptr, false);
  EXPECT_GT(counts["up"]["lost"].get<int>(), 0) << counts;
}

TEST(Ipem, UdpLosesAboutTheShareAskedFor) {
  if (!root()) GTEST_SKIP() << "needs root (network namespaces and TUN devices)";
  Ipem ipem({"--profile", "wifi", "--mbps", "0", "--delay-ms", "1", "--jitter-ms", "0", "--loss", "10", "--seed", "3"});
  const auto arrived = udp_sequence(ipem, 3000, 200us);
  const auto counts = nlohmann::json::parse(ipem.stop(), nullptr, false);
  ASSERT_TRUE(counts.is_object());
  // The share the link lost is the link's decision; a loaded machine may
  // also drop datagrams before the link sees them (the sender's TUN queue),
  // which is not the link's loss and is left out of the share.
  const auto& up = counts["up"];
  const int offered = up["offered"].get<int>();
  ASSERT_GT(offered, 1500) << counts;
  const double share = double(up["lost"].get<int>()) / offered;
  EXPECT_GT(share, 0.07) << counts;
  EXPECT_LT(share, 0.13) << counts;
  // Every datagram the link passed arrived, and nothing else did.
  const int passed = up["delivered"].get<int>() - up["overflow"].get<int>() - up["write_errors"].get<int>();
  EXPECT_EQ(int(arrived.size()), passed) << counts;
  EXPECT_EQ(overtaken(arrived), 0);
  std::printf("[ ipem ] UDP: %.1f %% of %d datagrams lost at 10 %% asked (%d sent)\n", share * 100, offered, 3000);
}

TEST(Ipem, JitterReordersOnlyWhenAllowed) {
  if (!root()) GTEST_SKIP() << "needs root (network namespaces and TUN devices)";
  for (bool reorder : {false, true}) {
    std::vector<std::string> flags = {"--profile", "wifi", "--mbps", "0", "--delay-ms", "5", "--jitter-ms", "20",
                                      "--loss", "0"};
    if (reorder) flags.push_back("--reorder");
    Ipem ipem(flags);
    const auto arrived = udp_sequence(ipem, 600, 500us);
    EXPECT_EQ(arrived.size(), 600u) << reorder;
    if (reorder) {
      EXPECT_GT(overtaken(arrived), 0);
    } else {
      EXPECT_EQ(overtaken(arrived), 0);
    }
  }
}

}  // namespace
}  // namespace voxl::bench
