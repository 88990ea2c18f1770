// ipem: an IP-level link emulator between two network namespaces.
//
//   sudo build/dev/ipem --profile lte
//   sudo ip netns exec voxl-srv build/dev/voxl --addr=10.77.0.1 ...
//   sudo ip netns exec voxl-cli build/dev/voxl-bench-client --url=http://10.77.0.1:...
//
// It makes the namespaces (--server-netns, --viewer-netns; an empty server
// namespace keeps the server's side here), a TUN device in each with its
// address, prints "ready SERVER_ADDR VIEWER_ADDR" and relays
// every packet between them through the profile's path until SIGINT or
// SIGTERM (or --seconds), then prints its counts as one JSON line and
// removes the namespaces. --list names the profiles. Any flag after
// --profile changes that profile (both directions unless it says up or
// down).
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "link_profiles.h"
#include "packet_relay.h"
#include "tun_pair.h"

namespace {

using voxl::bench::LinkProfile;
using voxl::bench::PathSettings;

struct Overrides {
  double mbps = -1, up_mbps = -1, delay_ms = -1, jitter_ms = -1, loss = -1, burst = -1, queue_kb = -1;
  std::string schedule;
  bool reorder = false;
  uint64_t seed = 1;
};

void apply(PathSettings& s, const Overrides& o, double mbps) {
  if (mbps >= 0) s.mbps = mbps;
  if (o.delay_ms >= 0) s.delay = std::chrono::microseconds(int64_t(o.delay_ms * 1000));
  if (o.jitter_ms >= 0) s.jitter = std::chrono::microseconds(int64_t(o.jitter_ms * 1000));
  if (o.loss >= 0) s.loss = o.loss / 100;
  if (o.burst >= 0) s.mean_burst = o.burst;
  if (o.queue_kb >= 0) s.queue_bytes = size_t(o.queue_kb * 1024);
  if (o.reorder) s.reorder = true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ipem: an IP link emulator between two network namespaces (run as root)"};
  std::string profile_name = "wifi";
  voxl::bench::TunSide server{"voxl-srv", "10.77.0.1"}, viewer{"voxl-cli", "10.77.0.2"};
  Overrides o;
  double seconds = 0;
  int mtu = 1500;
  bool list = false;
  app.add_option("--profile", profile_name, "wifi, lte, lossy-long or drop (--list)");
  app.add_flag("--list", list, "print the profiles and exit");
  app.add_option("--mbps", o.mbps, "the rate both ways (down alone with --up-mbps)")->check(CLI::Range(0.0, 100000.0));
  app.add_option("--up-mbps", o.up_mbps, "the rate from the viewer to the server")->check(CLI::Range(0.0, 100000.0));
  app.add_option("--delay-ms", o.delay_ms, "one-way delay, each way")->check(CLI::Range(0.0, 10000.0));
  app.add_option("--jitter-ms", o.jitter_ms, "extra one-way delay, uniform from 0 to this")->check(CLI::Range(0.0, 10000.0));
  app.add_flag("--reorder", o.reorder, "let jittered packets overtake each other");
  app.add_option("--loss", o.loss, "percent of packets lost, each way")->check(CLI::Range(0.0, 99.0));
  app.add_option("--burst", o.burst, "mean length of a run of losses, packets (1: independent)")->check(CLI::Range(1.0, 1000.0));
  app.add_option("--queue-kb", o.queue_kb, "the bottleneck's queue, KiB")->check(CLI::Range(1.0, 65536.0));
  app.add_option("--schedule", o.schedule, "down rate changes, SECONDS:MBPS,... from the start");
  app.add_option("--seed", o.seed, "the random seed (the same seed loses the same packets)");
  app.add_option("--seconds", seconds, "stop after this long (0: at SIGINT or SIGTERM)")->check(CLI::Range(0.0, 86400.0));
  app.add_option("--server-netns", server.netns, "the server's namespace, made here (\"\": stay in this one)");
  app.add_option("--viewer-netns", viewer.netns, "the viewer's namespace, made here");
  app.add_option("--server-address", server.address, "the server's address (a /24 shared with the viewer's)");
  app.add_option("--viewer-address", viewer.address, "the viewer's address");
  app.add_option("--mtu", mtu, "the TUN devices' MTU")->check(CLI::Range(576, 9000));
  CLI11_PARSE(app, argc, argv);

  if (list) {
    for (const LinkProfile& p : voxl::bench::link_profiles()) std::printf("%-11s %s\n", p.name.c_str(), p.models.c_str());
    return 0;
  }
  if (viewer.netns.empty() || viewer.netns == server.netns) {
    std::cerr << "ipem: --viewer-netns must name a namespace of its own\n";
    return 2;
  }
  auto profile = voxl::bench::find_link_profile(profile_name);
  if (!profile) {
    std::cerr << "ipem: no profile '" << profile_name << "' (see --list)\n";
    return 2;
  }
  apply(profile->down, o, o.mbps);
  apply(profile->up, o, o.up_mbps >= 0 ? o.up_mbps : o.mbps);
  profile->down.seed = o.seed;
  profile->up.seed = o.seed + 1;
  if (!o.schedule.empty()) {
    std::string error;
    auto steps = voxl::bench::parse_rate_schedule(o.schedule, error);
    if (!steps) {
      std::cerr << "ipem: --schedule: " << error << "\n";
      return 2;
    }
    profile->down.schedule = *steps;
  }

  // SIGINT and SIGTERM arrive through a descriptor the relay waits on.
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  sigprocmask(SIG_BLOCK, &stops, nullptr);
  const int signal_fd = signalfd(-1, &stops, SFD_CLOEXEC);
  if (signal_fd < 0) {
    std::perror("ipem: signalfd");
    return 1;
  }
  try {
    voxl::bench::TunPair pair(server, viewer, mtu);
    const auto start = std::chrono::steady_clock::now();
    voxl::bench::PacketRelay relay(pair.fd_a(), pair.fd_b(), profile->down, profile->up, start);
    std::printf("ready %s %s\n", server.address.c_str(), viewer.address.c_str());
    std::fflush(stdout);
    const auto until = seconds > 0 ? start + std::chrono::microseconds(int64_t(seconds * 1e6))
                                   : std::chrono::steady_clock::time_point::max();
    relay.run(signal_fd, until);
    std::printf("%s\n", relay.stats_json().c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::cerr << "ipem: " << e.what() << "\n";
    return 1;
  }
  ::close(signal_fd);
  return 0;
}
