// Counts the server's open connections, all together and per remote
// address, from accept to close. A connection that fits gets a token; the
// count goes down when the token is destroyed, wherever it ended up (an
// HTTP session, then a viewer session). Pure bookkeeping: no sockets.
//
// Threads: the loop thread only. Tokens may outlive the limiter (they hold
// its counts by shared pointer).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>

namespace voxl::net {

struct ConnectionCaps {
  size_t total = 256;        // --max-connections
  size_t per_address = 128;  // --max-connections-per-address
};

class ConnectionToken {
 public:
  ConnectionToken() = default;
  ~ConnectionToken();
  ConnectionToken(ConnectionToken&& o) noexcept;
  ConnectionToken& operator=(ConnectionToken&& o) noexcept;
  ConnectionToken(const ConnectionToken&) = delete;
  ConnectionToken& operator=(const ConnectionToken&) = delete;

  bool held() const { return counts_ != nullptr; }

 private:
  friend class ConnectionLimiter;
  struct Counts;
  ConnectionToken(std::shared_ptr<Counts> counts, std::string address);
  void release();

  std::shared_ptr<Counts> counts_;
  std::string address_;
};

class ConnectionLimiter {
 public:
  enum class Refusal { kNone, kTotal, kPerAddress };

  explicit ConnectionLimiter(ConnectionCaps caps);

  // A token for a connection from `address`, or an empty one (and `why`
  // set) when either limit is reached.
  ConnectionToken admit(const std::string& address, Refusal& why);

  size_t open() const;
  size_t open_from(const std::string& address) const;
  const ConnectionCaps& caps() const { return caps_; }

 private:
  ConnectionCaps caps_;
  std::shared_ptr<ConnectionToken::Counts> counts_;
};

}  // namespace voxl::net
