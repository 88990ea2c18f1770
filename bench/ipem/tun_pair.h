// Two network namespaces joined through this process: each has a TUN device
// with an address on one /24, and every IP packet one side sends to the
// other is read here from its TUN device, so the path between them is
// whatever this process makes of it. Programs are started inside with
// `ip netns exec NAME ...` (an X server's socket in /tmp stays reachable).
//
// Linux only, as root (namespaces and TUN devices). The namespaces are made
// here and removed by the destructor; names that exist already are refused,
// so two runs never share one. A side whose namespace is "" stays in this
// process's namespace (a server the rest of the machine reaches as usual);
// its /24 is then routed to the TUN device here while ipem runs.
//
// Threads: one; the descriptors are non-blocking.
#pragma once

#include <string>
#include <vector>

namespace voxl::bench {

struct TunSide {
  std::string netns;    // e.g. voxl-srv; "": this namespace
  std::string address;  // e.g. 10.77.0.1
};

class TunPair {
 public:
  // Throws std::runtime_error saying what failed (and undoes what it did).
  TunPair(TunSide a, TunSide b, int mtu);
  ~TunPair();
  TunPair(const TunPair&) = delete;
  TunPair& operator=(const TunPair&) = delete;

  int fd_a() const { return fd_a_; }
  int fd_b() const { return fd_b_; }

 private:
  void teardown();

  TunSide a_, b_;
  int fd_a_ = -1, fd_b_ = -1;
  std::vector<std::string> made_;  // namespaces to remove
};

// Runs `ip` with `args`; throws std::runtime_error with its message when it fails.
void run_ip(const std::vector<std::string>& args);

}  // namespace voxl::bench
