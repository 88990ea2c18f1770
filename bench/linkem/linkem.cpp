// linkem: a TCP proxy that emulates a slow link (bandwidth cap, one-way
// delay each way, a deep bottleneck queue) between a client and a server.
//
//   linkem --listen 127.0.0.1:P --to 127.0.0.1:Q --mbps 5 --rtt-ms 60 [--queue-ms 1000] [--shared]
//
// P may be 0: the port picked is printed as "listening on PORT". Runs until
// SIGINT or SIGTERM.
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>

#include <boost/asio/signal_set.hpp>
#include <CLI/CLI.hpp>

#include "link_proxy.h"

namespace {

boost::asio::ip::tcp::endpoint parse_endpoint(const std::string& s) {
  const auto colon = s.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("want HOST:PORT, got " + s);
  return {boost::asio::ip::make_address(s.substr(0, colon)), uint16_t(std::stoi(s.substr(colon + 1)))};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"linkem: a TCP proxy that emulates a slow link"};
  std::string listen, to;
  double mbps = 0, rtt_ms = 0;
  int queue_ms = 1000;
  bool shared = false;
  app.add_option("--listen", listen, "HOST:PORT to accept on (port 0 picks one)")->required();
  app.add_option("--to", to, "HOST:PORT to forward to")->required();
  app.add_option("--mbps", mbps, "bandwidth each way in Mbit/s (0: no cap)")->check(CLI::Range(0.0, 100000.0));
  app.add_option("--rtt-ms", rtt_ms, "added round-trip time, half each way")->check(CLI::Range(0.0, 10000.0));
  app.add_option("--queue-ms", queue_ms, "bottleneck queue, in ms at the link rate")->check(CLI::Range(1, 60000));
  app.add_flag("--shared", shared, "one link each way for all connections (default: one per connection)");
  CLI11_PARSE(app, argc, argv);
  try {
    boost::asio::io_context io(1);
    voxl::bench::LinkSettings settings{mbps, std::chrono::microseconds(int64_t(rtt_ms * 1000)),
                                       std::chrono::milliseconds(queue_ms), shared};
    voxl::bench::LinkProxy proxy(io, parse_endpoint(listen), parse_endpoint(to), settings);
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](auto, int) { io.stop(); });
    std::printf("listening on %u\n", unsigned(proxy.port()));
    std::fflush(stdout);
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "linkem: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
