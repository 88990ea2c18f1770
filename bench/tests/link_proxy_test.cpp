// The proxy over real loopback sockets. Load can only make it slower, so
// the checks are the bounds the settings guarantee (nothing arrives sooner
// than the delay, nothing flows faster than the cap) and byte-exact
// delivery; the measured figures are printed for the record.
#include "link_proxy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <thread>

#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

namespace voxl::bench {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// An echo server and the proxy in front of it, on a thread of their own.
class ProxyFixture {
 public:
  explicit ProxyFixture(LinkSettings s)
      : acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}),
        proxy_(io_, {asio::ip::make_address("127.0.0.1"), 0}, acceptor_.local_endpoint(), s) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~ProxyFixture() {
    io_.stop();
    thread_.join();
  }
  uint16_t port() const { return proxy_.port(); }

 private:
  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket s) {
      if (ec) return;
      auto sock = std::make_shared<tcp::socket>(std::move(s));
      auto buf = std::make_shared<std::array<char, 65536>>();
      echo(sock, buf);
    });
  }
  void echo(std::shared_ptr<tcp::socket> s, std::shared_ptr<std::array<char, 65536>> buf) {
    s->async_read_some(asio::buffer(*buf), [this, s, buf](boost::system::error_code ec, size_t n) {
      if (ec) return;
      asio::async_write(*s, asio::buffer(buf->data(), n), [this, s, buf](boost::system::error_code wec, size_t) {
        if (!wec) echo(s, buf);
      });
    });
  }

  asio::io_context io_{1};
  tcp::acceptor acceptor_;
  LinkProxy proxy_;
  std::thread thread_;
};

tcp::socket connect(asio::io_context& io, uint16_t port) {
  tcp::socket s(io);
  s.connect({asio::ip::make_address("127.0.0.1"), port});
  s.set_option(tcp::no_delay(true));
  return s;
}

TEST(LinkProxy, AddsTheRoundTripTime) {
  ProxyFixture f({0, 80ms, 1000ms});
  asio::io_context io;
  auto s = connect(io, f.port());
  double best_ms = 1e9;
  for (int i = 0; i < 5; ++i) {
    char byte = char('a' + i), back = 0;
    const auto t0 = Clock::now();
    asio::write(s, asio::buffer(&byte, 1));
    asio::read(s, asio::buffer(&back, 1));
    best_ms = std::min(best_ms, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    EXPECT_EQ(back, byte);
  }
  std::printf("round trip through an 80 ms link: %.1f ms (best of 5)\n", best_ms);
  EXPECT_GE(best_ms, 80.0);
}

TEST(LinkProxy, DeliversEveryByteNoFasterThanTheCap) {
  // 20 Mbit/s each way, 20 ms RTT: 1.5 MB out and back.
  ProxyFixture f({20, 20ms, 200ms});
  asio::io_context io;
  auto s = connect(io, f.port());
  std::string data(1'500'000, '\0');
  std::mt19937 rng(3);
  for (char& c : data) c = char(rng());
  std::string back(data.size(), '\0');
  const auto t0 = Clock::now();
  std::thread writer([&] { asio::write(s, asio::buffer(data)); });
  asio::read(s, asio::buffer(back));
  writer.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_TRUE(back == data);
  // Echoed, the bytes cross the link twice, but both directions run at once:
  // the transfer takes at least one direction's serialisation time.
  const double floor_s = double(data.size()) * 8 / 20e6;
  const double mbps = double(data.size()) * 8 / 1e6 / (seconds - 0.020);
  std::printf("1.5 MB through a 20 Mbit/s link: %.2f s, %.1f Mbit/s (floor %.2f s)\n", seconds, mbps, floor_s);
  EXPECT_GE(seconds, floor_s);
}

TEST(LinkProxy, CloseFromTheClientEndsTheConnection) {
  ProxyFixture f({10, 10ms, 100ms});
  asio::io_context io;
  auto s = connect(io, f.port());
  asio::write(s, asio::buffer("ping", 4));
  char back[4];
  asio::read(s, asio::buffer(back));
  EXPECT_EQ(std::string(back, 4), "ping");
  s.shutdown(tcp::socket::shutdown_send);
  boost::system::error_code ec;
  char more;
  asio::read(s, asio::buffer(&more, 1), ec);
  EXPECT_EQ(ec, asio::error::eof);
}

}  // namespace
}  // namespace voxl::bench
