// What a client can make voxl hold, bounded on the real binary: connections
// in all and per remote address (HTTP and WebSocket alike), /wait waiters,
// and accept backing off when voxl runs out of descriptors. Sockets voxl
// accepts are close-on-exec.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <iterator>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "platform/fd_limits.h"
#include "endpoint_fixture.h"
#include "raw_connection.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

constexpr auto kLimit = 30s;

class LimitsTest : public EndpointFixture {
 protected:
  std::string request(const std::string& target, bool close = false) const {
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(voxl_->port()) + "\r\n" +
           (close ? "Connection: close\r\n" : "") + "\r\n";
  }

  // A connection that voxl has accepted and answered once, kept open.
  std::unique_ptr<RawConnection> answered_connection(const std::string& source = "127.0.0.1") {
    auto s = std::make_unique<RawConnection>(voxl_->port(), source);
    EXPECT_TRUE(s->send(request("/wait?idle=0")));
    s->read_until([](const std::string& got) { return got.find("waited_ms") != std::string::npos; }, kLimit);
    EXPECT_NE(s->received().find("HTTP/1.1 200"), std::string::npos) << s->received();
    return s;
  }

  // True when a new connection from `source` is answered 503 with
  // Retry-After and the cap's flag in JSON, then closed (it was over a
  // limit). `target` may be a WebSocket upgrade: it is refused before it.
  bool refused(const std::string& source = "127.0.0.1", const std::string& flag = "--max-connections",
               const std::string& upgrade = "") {
    RawConnection s(voxl_->port(), source);
    s.send("GET " + std::string(upgrade.empty() ? "/wait?idle=0" : "/ws") + " HTTP/1.1\r\nHost: 127.0.0.1:" +
           std::to_string(voxl_->port()) + "\r\n" + upgrade + "\r\n");
    if (!s.read_until_closed(kLimit)) return false;
    const std::string& got = s.received();
    const size_t body = got.find("\r\n\r\n");
    EXPECT_NE(got.find("HTTP/1.1 503"), std::string::npos) << got;
    EXPECT_NE(got.find("Retry-After: 5"), std::string::npos) << got;
    EXPECT_NE(got.find("Connection: close"), std::string::npos) << got;
    if (body == std::string::npos) return false;
    const auto json = nlohmann::json::parse(got.substr(body + 4), nullptr, false);
    EXPECT_EQ(json.value("limit", ""), flag) << got;
    EXPECT_NE(json.value("error", "").find(flag), std::string::npos) << got;
    EXPECT_EQ(json.value("retry_after", 0), 5) << got;
    return got.find("HTTP/1.1 503") != std::string::npos;
  }

  // A new connection is answered again, once voxl has seen an old one close
  // (which it does on its own time).
  bool served_again(const std::string& source = "127.0.0.1") {
    const auto deadline = std::chrono::steady_clock::now() + kLimit;
    while (std::chrono::steady_clock::now() < deadline) {
      RawConnection s(voxl_->port(), source);
      s.send(request("/wait?idle=0", true));
      s.read_until_closed(kLimit);
      if (s.received().find("HTTP/1.1 200") != std::string::npos) return true;
    }
    return false;
  }

  size_t count_in_log(const std::string& text) const {
    const std::string log = voxl_->log();
    size_t n = 0;
    for (size_t at = log.find(text); at != std::string::npos; at = log.find(text, at + 1)) ++n;
    return n;
  }
};

TEST_F(LimitsTest, ConnectionsPerAddressAreCapped) {
  start({"--max-connections-per-address=2"});
  auto a = answered_connection();
  auto b = answered_connection();
  EXPECT_TRUE(refused("127.0.0.1", "--max-connections-per-address"));
  // A WebSocket is told the same, before the upgrade.
  EXPECT_TRUE(refused("127.0.0.1", "--max-connections-per-address",
                      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"));
  EXPECT_TRUE(voxl_->wait_for_log("refused a connection from 127.0.0.1", kLimit)) << voxl_->log();
  EXPECT_NE(voxl_->log().find("--max-connections-per-address"), std::string::npos);
  // Another address is not held back by this one.
  auto c = answered_connection("127.0.0.2");
  a.reset();
  EXPECT_TRUE(served_again());
}

TEST_F(LimitsTest, AViewerHoldsAConnectionPlaceUntilItLeaves) {
  start({"--max-connections=2"});
  auto viewer = std::make_unique<StreamClient>(client_options());
  ASSERT_TRUE(viewer->wait_until([&] { return !viewer->texts().empty(); }));
  auto http = answered_connection("127.0.0.3");
  EXPECT_TRUE(refused("127.0.0.4", "--max-connections"));
  EXPECT_TRUE(voxl_->wait_for_log("(--max-connections)", kLimit)) << voxl_->log();
  viewer.reset();
  EXPECT_TRUE(served_again("127.0.0.4"));
}

TEST_F(LimitsTest, WaitersAreCapped) {
  // Enough descriptors on this side for 4097 connections.
  const platform::FdLimit fds = platform::raise_fd_limit();
  if (fds.soft < 4300) GTEST_SKIP() << "needs 4300 open files, may have " << fds.soft;
  start({"--max-connections=5000", "--max-connections-per-address=5000", "--log-level=debug"});
  constexpr size_t kCap = 4096;  // ChangeMonitor::kMaxWaiters
  std::vector<RawConnection> waiting;
  waiting.reserve(kCap);
  for (size_t i = 0; i < kCap; ++i) {
    waiting.emplace_back(voxl_->port());
    ASSERT_TRUE(waiting.back().send(request("/wait?change&region=0,0,1,1&timeout=300000"))) << i;
  }
  ASSERT_TRUE(voxl_->wait_for_log("(4096 waiting)", 240s)) << "not all waits started";
  const HttpAnswer over = get("/wait?change&timeout=1000");
  expect_error(over, 503, "");
  EXPECT_NE(over.body.find("too many waiters"), std::string::npos) << over.body;
  waiting.clear();
  EXPECT_TRUE(voxl_->wait_for_log("its client left (0 waiting)", 240s));
  EXPECT_EQ(get("/wait?idle=0").status, 200);
}

TEST_F(LimitsTest, AcceptBacksOffWhenOutOfDescriptorsAndRecovers) {
  start();
  // Leave voxl a few descriptors more than it has open now.
  const std::filesystem::directory_iterator fds("/proc/" + std::to_string(voxl_->pid()) + "/fd");
  const auto open_now = rlim_t(std::distance(begin(fds), end(fds)));
  rlimit before{};
  ASSERT_EQ(::prlimit(voxl_->pid(), RLIMIT_NOFILE, nullptr, &before), 0);
  const rlimit tight{open_now + 8, before.rlim_max};  // the soft limit alone: it can be put back
  ASSERT_EQ(::prlimit(voxl_->pid(), RLIMIT_NOFILE, &tight, nullptr), 0);
  std::vector<RawConnection> held;
  for (int i = 0; i < 24; ++i) {
    held.emplace_back(voxl_->port());  // the kernel completes the handshake; voxl may never accept it
    held.back().send(request("/wait?change&timeout=300000"));
  }
  ASSERT_TRUE(voxl_->wait_for_log("cannot accept connections", kLimit)) << voxl_->log();
  // Descriptors come free: the held connections close, and the limit is
  // what it was (or the backlog of closed connections could run it out
  // again while voxl drains it).
  held.clear();
  ASSERT_EQ(::prlimit(voxl_->pid(), RLIMIT_NOFILE, &before, nullptr), 0);
  EXPECT_TRUE(voxl_->wait_for_log("accepting connections again", kLimit)) << voxl_->log();
  EXPECT_TRUE(served_again());
  EXPECT_EQ(count_in_log("cannot accept connections"), 1u) << "said once per episode\n" << voxl_->log();
}

// The inodes of the TCP sockets in /proc/<pid>/net/tcp{,6}.
std::set<std::string> tcp_inodes(pid_t pid) {
  std::set<std::string> out;
  for (const char* table : {"tcp", "tcp6"}) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/net/" + table);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string f;
      for (int i = 0; i < 10 && fields >> f; ++i) {
      }
      if (!f.empty()) out.insert(f);  // the tenth field is the inode
    }
  }
  return out;
}

TEST_F(LimitsTest, TcpSocketsAreCloseOnExec) {
  start();
  auto kept = answered_connection();
  const pid_t pid = voxl_->pid();
  const auto inodes = tcp_inodes(pid);
  size_t checked = 0;
  const std::string dir = "/proc/" + std::to_string(pid);
  for (const auto& e : std::filesystem::directory_iterator(dir + "/fd")) {
    std::error_code ec;
    const std::string target = std::filesystem::read_symlink(e.path(), ec).string();
    if (ec || target.rfind("socket:[", 0) != 0) continue;
    if (!inodes.count(target.substr(8, target.size() - 9))) continue;  // not TCP (X, PulseAudio)
    std::ifstream info(dir + "/fdinfo/" + e.path().filename().string());
    std::string key, flags;
    while (info >> key && key != "flags:") {
    }
    info >> flags;
    const unsigned long value = std::stoul(flags, nullptr, 8);
    EXPECT_NE(value & 02000000, 0u) << "fd " << e.path().filename() << " (" << target << ") flags " << flags;
    ++checked;
  }
  EXPECT_GE(checked, 2u) << "the listening socket and the accepted one";
}

}  // namespace
}  // namespace voxl::testing
