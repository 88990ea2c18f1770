#include "raw_connection.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace voxl::testing {

namespace {

using Clock = std::chrono::steady_clock;

int ms_left(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : int(left);
}

}  // namespace

RawConnection::RawConnection(uint16_t port, std::chrono::milliseconds limit, int receive_buffer) {
  connect_to(port, {}, limit, receive_buffer);
}

RawConnection::RawConnection(uint16_t port, const std::string& source, std::chrono::milliseconds limit) {
  connect_to(port, source, limit, 0);
}

RawConnection::RawConnection(RawConnection&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), received_(std::move(o.received_)), peer_closed_(o.peer_closed_) {}

void RawConnection::connect_to(uint16_t port, const std::string& source, std::chrono::milliseconds limit,
                               int receive_buffer) {
  fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  if (receive_buffer > 0) setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  if (!source.empty()) {
    sockaddr_in from{};
    from.sin_family = AF_INET;
    if (inet_pton(AF_INET, source.c_str(), &from.sin_addr) != 1 ||
        bind(fd_, reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0) {
      const int e = errno;
      ::close(fd_);
      throw std::runtime_error("bind " + source + ": " + std::strerror(e));
    }
  }
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0 && errno != EINPROGRESS) {
    const int e = errno;
    ::close(fd_);
    throw std::runtime_error(std::string("connect: ") + std::strerror(e));
  }
  pollfd p{fd_, POLLOUT, 0};
  int err = 0;
  socklen_t len = sizeof err;
  if (poll(&p, 1, int(limit.count())) != 1 || getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
    ::close(fd_);
    throw std::runtime_error(std::string("connect to port ") + std::to_string(port) + ": " +
                             (err ? std::strerror(err) : "timed out"));
  }
}

RawConnection::~RawConnection() { close(); }

void RawConnection::close(bool reset) {
  if (fd_ < 0) return;
  if (reset) {
    const linger l{1, 0};
    setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  }
  ::close(fd_);
  fd_ = -1;
}

bool RawConnection::send(std::string_view bytes, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  while (!bytes.empty()) {
    if (fd_ < 0) return false;
    const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes.remove_prefix(size_t(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd_, POLLOUT, 0};
      if (poll(&p, 1, ms_left(deadline)) <= 0) return false;
      if (p.revents & (POLLERR | POLLHUP)) return false;
      continue;
    }
    return false;
  }
  return true;
}

bool RawConnection::read_until(const std::function<bool(const std::string&)>& done,
                               std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  char buf[16384];
  while (!done(received_)) {
    if (fd_ < 0 || peer_closed_) return done(received_);
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n > 0) {
      received_.append(buf, size_t(n));
      continue;
    }
    if (n == 0) {
      peer_closed_ = true;
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      const int left = ms_left(deadline);
      if (left == 0) return done(received_);
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, left) < 0 && errno != EINTR) return done(received_);
      continue;
    }
    peer_closed_ = true;  // ECONNRESET and the like: the peer is gone
  }
  return true;
}

bool RawConnection::read_until_closed(std::chrono::milliseconds limit) {
  read_until([this](const std::string& r) {
    // Keep the memory bounded: what a closed-or-not check needs is the end.
    if (r.size() > (1u << 20)) received_.erase(0, r.size() - 4096);
    return peer_closed_;
  }, limit);
  return peer_closed_;
}

std::optional<int> RawConnection::read_status(std::chrono::milliseconds limit) {
  read_until([](const std::string& r) { return http_status_in(r).has_value(); }, limit);
  return http_status_in(received_);
}

std::optional<int> http_status_in(const std::string& bytes) {
  if (bytes.rfind("HTTP/1.", 0) != 0 || bytes.find("\r\n\r\n") == std::string::npos || bytes.size() < 12)
    return std::nullopt;
  int code = 0;
  for (size_t i = 9; i < 12; ++i) {
    if (bytes[i] < '0' || bytes[i] > '9') return std::nullopt;
    code = code * 10 + (bytes[i] - '0');
  }
  return code;
}

std::string websocket_upgrade_request(const std::string& host, const std::string& extra_headers) {
  return "GET /ws HTTP/1.1\r\nHost: " + host +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
         extra_headers + "\r\n";
}

std::string websocket_frame(uint8_t opcode, std::string_view payload, std::optional<uint32_t> mask, bool fin,
                            std::optional<uint64_t> declared_length) {
  std::string f;
  f += char((fin ? 0x80 : 0) | (opcode & 0x0f));
  const uint64_t len = declared_length.value_or(payload.size());
  const char mask_bit = mask ? char(0x80) : char(0);
  if (len < 126) {
    f += char(mask_bit | char(len));
  } else if (len <= 0xffff) {
    f += char(mask_bit | 126);
    f += char(len >> 8);
    f += char(len & 0xff);
  } else {
    f += char(mask_bit | 127);
    for (int i = 7; i >= 0; --i) f += char((len >> (8 * i)) & 0xff);
  }
  if (!mask) return f.append(payload);
  const uint8_t key[4] = {uint8_t(*mask >> 24), uint8_t(*mask >> 16), uint8_t(*mask >> 8), uint8_t(*mask)};
  f.append(reinterpret_cast<const char*>(key), 4);
  const size_t start = f.size();
  f.append(payload);
  for (size_t i = 0; i < payload.size(); ++i) f[start + i] = char(uint8_t(f[start + i]) ^ key[i % 4]);
  return f;
}

std::optional<ServerFrame> next_server_frame(const std::string& bytes, size_t& offset) {
  size_t at = offset;
  if (bytes.size() < at + 2) return std::nullopt;
  const uint8_t b0 = uint8_t(bytes[at]);
  uint64_t len = uint8_t(bytes[at + 1]) & 0x7f;
  at += 2;
  if (len == 126 || len == 127) {
    const size_t n = len == 126 ? 2 : 8;
    if (bytes.size() < at + n) return std::nullopt;
    len = 0;
    for (size_t i = 0; i < n; ++i) len = (len << 8) | uint8_t(bytes[at + i]);
    at += n;
  }
  if (bytes.size() - at < len) return std::nullopt;
  ServerFrame f{uint8_t(b0 & 0x0f), bytes.substr(at, size_t(len))};
  offset = at + size_t(len);
  return f;
}

}  // namespace voxl::testing
