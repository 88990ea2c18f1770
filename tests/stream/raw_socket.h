// Plain TCP sockets to the voxl under test, for what an HTTP client library
// would not do: send bytes ahead of an answer, hang up mid-request, hold
// many connections, connect from another loopback address.
//
// Threads: a RawSocket belongs to one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace voxl::testing {

class RawSocket {
 public:
  // Connects to 127.0.0.1:`port` from `source` (any 127.x.y.z works on
  // Linux loopback). Throws std::runtime_error when that fails.
  explicit RawSocket(uint16_t port, const std::string& source = "127.0.0.1");
  ~RawSocket();
  RawSocket(RawSocket&& o) noexcept;
  RawSocket& operator=(RawSocket&&) = delete;
  RawSocket(const RawSocket&) = delete;

  int fd() const { return fd_; }
  bool send(const std::string& bytes);  // all of it, or false
  // What arrives until the peer closes or `limit` passes.
  std::string read_until_closed(std::chrono::milliseconds limit);
  // Whatever arrives within `limit` (at most one read's worth); empty when
  // nothing or closed.
  std::string read_some(std::chrono::milliseconds limit);
  // True once the peer has closed (EOF or reset) within `limit`; bytes
  // that arrive first are dropped.
  bool closed_by_peer(std::chrono::milliseconds limit);
  void close();

 private:
  int fd_ = -1;
};

}  // namespace voxl::testing
