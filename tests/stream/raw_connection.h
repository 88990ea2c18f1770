// A plain TCP connection to voxl for tests that must send what no HTTP or
// WebSocket library would: malformed requests, partial headers, broken
// frames, a connection dropped mid-way. Also builds the bytes of a client
// WebSocket handshake and of (masked) client frames, well-formed or not.
//
// Every call that waits takes a deadline; nothing happens in the background.
// Threads: one thread at a time per connection.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace voxl::testing {

class RawConnection {
 public:
  // Connects to 127.0.0.1:`port` within `limit`; throws std::runtime_error
  // when that fails. `receive_buffer` > 0 sets SO_RCVBUF first.
  explicit RawConnection(uint16_t port, std::chrono::milliseconds limit = std::chrono::seconds(30),
                         int receive_buffer = 0);
  // The same from the loopback address `source` (any 127.x.y.z works on
  // Linux), for limits counted per client address.
  RawConnection(uint16_t port, const std::string& source, std::chrono::milliseconds limit = std::chrono::seconds(30));
  ~RawConnection();  // close()
  RawConnection(RawConnection&& o) noexcept;
  RawConnection& operator=(RawConnection&&) = delete;
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // Writes all of `bytes` within `limit`; false when the peer has gone or
  // the deadline passed (a server that stopped reading).
  bool send(std::string_view bytes, std::chrono::milliseconds limit = std::chrono::seconds(30));
  // Reads until `done(received())` holds (true), the peer closes or `limit`
  // passes (false unless `done` then holds).
  bool read_until(const std::function<bool(const std::string&)>& done, std::chrono::milliseconds limit);
  // Reads until the peer closes the connection; true when it did in time.
  bool read_until_closed(std::chrono::milliseconds limit);
  // Reads until a whole HTTP response head (status line and headers) has
  // arrived; its status code, or nullopt when none came in time.
  std::optional<int> read_status(std::chrono::milliseconds limit);

  const std::string& received() const { return received_; }
  // Forgets the first `n` bytes received (what the caller has handled).
  void consume(size_t n) { received_.erase(0, n); }
  bool peer_closed() const { return peer_closed_; }
  // Closes with a FIN, or with a RST (SO_LINGER 0) when `reset`.
  void close(bool reset = false);

 private:
  void connect_to(uint16_t port, const std::string& source, std::chrono::milliseconds limit, int receive_buffer);

  int fd_ = -1;
  std::string received_;
  bool peer_closed_ = false;
};

// The status code of the HTTP response at the start of `bytes`, once its
// head is complete; nullopt before that or when it is not HTTP.
std::optional<int> http_status_in(const std::string& bytes);

// The bytes of a client WebSocket upgrade request for /ws. `extra_headers`
// ("Name: value\r\n" lines) go after the standard ones.
std::string websocket_upgrade_request(const std::string& host, const std::string& extra_headers = {});

// One client WebSocket frame: FIN bit `fin`, `opcode` (1 text, 2 binary, 8
// close, 9 ping, 0 continuation), the payload masked with `mask` (unmasked
// when nullopt, which a server must refuse). `declared_length`, when set,
// is the length the header claims instead of the payload's real one.
std::string websocket_frame(uint8_t opcode, std::string_view payload, std::optional<uint32_t> mask = 0x5a17c3e9u,
                            bool fin = true, std::optional<uint64_t> declared_length = std::nullopt);

// Reads server frames from `bytes` starting at `offset`: returns the next
// complete frame's opcode and payload and advances `offset`, or nullopt
// when no complete frame is there yet.
struct ServerFrame {
  uint8_t opcode = 0;
  std::string payload;
};
std::optional<ServerFrame> next_server_frame(const std::string& bytes, size_t& offset);

}  // namespace voxl::testing
