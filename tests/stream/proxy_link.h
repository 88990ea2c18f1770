// The bench's link emulator (bench/linkem's LinkProxy) in a test: a proxy
// on an io thread of its own, forwarding to voxl through an emulated slow
// link whose bandwidth can change while it runs.
//
// Threads: constructed and destroyed on the test's thread; set_mbps from any.
#pragma once

#include <cstdint>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "link_proxy.h"

namespace voxl::testing {

// The proxy on an io thread of its own, forwarding to voxl.
class Link {
 public:
  Link(uint16_t target_port, bench::LinkSettings settings)
      : proxy_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}, {boost::asio::ip::make_address("127.0.0.1"), target_port},
               settings),
        port_(proxy_.port()), thread_([this] { io_.run(); }) {}
  ~Link() {
    io_.stop();
    thread_.join();
  }
  uint16_t port() const { return port_; }
  void set_mbps(double mbps) { proxy_.set_mbps(mbps); }

 private:
  boost::asio::io_context io_{1};
  bench::LinkProxy proxy_;
  uint16_t port_;
  std::thread thread_;
};

}  // namespace voxl::testing
