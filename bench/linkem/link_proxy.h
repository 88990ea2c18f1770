// A user-space TCP proxy that puts an emulated slow link (LinkModel) in each
// direction of every connection it forwards, or (`shared`) one link each
// way that all its connections go through, first come first served: the
// kernel here has no netem, so bandwidth, delay and the bottleneck queue
// are made in user space.
//
// Threads: runs on the io_context it is given (one thread). Connections
// live until either side closes; the proxy lives until its io_context stops.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace voxl::bench {

struct LinkSettings {
  double mbps = 0;                       // <= 0: no cap
  std::chrono::microseconds rtt{0};      // half of it each way
  std::chrono::milliseconds queue{1000}; // bottleneck queue, in time at the link rate
  // One link for all connections (a client's access link, where a file
  // transfer and the stream compete) instead of one per connection.
  bool shared = false;
};

class LinkProxy {
 public:
  // Listens at once; throws (at start-up) when the address cannot be bound.
  LinkProxy(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& listen,
            const boost::asio::ip::tcp::endpoint& target, LinkSettings settings);
  ~LinkProxy();
  uint16_t port() const;
  // Changes the bandwidth of every link, open connections' too, from now on
  // (a link that got better or worse). Any thread: done on the proxy's
  // io_context.
  void set_mbps(double mbps);

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace voxl::bench
