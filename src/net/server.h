// voxl's HTTP and WebSocket server: the embedded web client at "/", the
// stream at "/ws", and JSON figures at "/stats", over plain TCP or TLS,
// behind the access policy. Beast stays inside src/net.
//
// The server owns its sessions: it keeps a registry of every live HTTP
// and WebSocket session (weak references, bounded by the connection
// limits), and stop() closes them all. After stop(), running the
// io_context until it has no work left (run() returning by itself, or
// poll() until it does nothing) ends every session: none holds the hub,
// the audio hub, the microphone, the interaction or the endpoints' state
// any more, and the loop's owner can destroy those in plain reverse order.
// Sessions keep the server's shared state alive while they end, so the
// Server object itself may go before the loop has drained.
//
// Threads: everything runs on the loop thread that runs the io_context
// passed in; construct, start and stop there.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/logging.h"
#include "base/metrics_text.h"
#include "net/access_policy.h"
#include "net/forwarded.h"
#include "net/connection_limits.h"
#include "net/endpoint.h"
#include "net/server_settings.h"
#include "stream/viewer/viewer_services.h"

namespace boost::asio {
class io_context;
}

namespace voxl::audio {
class Microphone;
}

namespace voxl::stream {
class Hub;
class AudioHub;
class ResizeController;
}
namespace voxl::input {
class Interaction;
}

namespace voxl::net {

class SignIns;

struct ServerOptions {
  std::string addr = "0.0.0.0";
  uint16_t port = 6901;  // 0: any free port (see Server::port())
  bool https = false;
  std::string cert_file;
  std::string key_file;
  // Open connections (HTTP and WebSocket, from accept to close) in all and
  // per remote address; one over either is answered 503 and closed.
  ConnectionCaps connections;
  ServerSettings settings;
  // What every viewer is given; the server sets its hub and log.
  stream::ViewerServices viewers;
  // TCP's congestion control for every connection (--tcp-congestion), set
  // on the listening socket; "system" leaves the system's. When the system
  // does not take it, the server says why in one line: a warning when the
  // name was asked for, information when it is the default.
  std::string tcp_congestion = "bbr";
  bool tcp_congestion_asked = false;
  // The users file's sign-ins (--users-file); null: none. Outlives the server.
  SignIns* sign_ins = nullptr;
};

// Whether the certificate chain and key load as the server would load them
// (readable, PEM, the key belonging to the certificate): nullopt, or what is
// wrong, naming the flag. For --check-config.
std::optional<std::string> check_tls_files(const std::string& cert_file, const std::string& key_file);

class Server {
 public:
  // Binds and listens. Throws std::runtime_error with a readable message
  // (address in use, bad address, unreadable certificate).
  Server(boost::asio::io_context& io, ServerOptions options, stream::Hub& hub, Logger log);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  uint16_t port() const;
  // The server's own figures for /metrics: its viewers, connections and
  // wrong credentials. Loop thread.
  void write_metrics(MetricsText& out) const;
  std::string url() const;  // e.g. http://127.0.0.1:6901/
  // url() with "?token=..." when the access token is on: the address to
  // open. It carries the secret: log it, show it, never send it elsewhere.
  std::string signed_url() const;
  // Stops accepting and closes every session: a viewer gets the WebSocket
  // close 1001 "going away" (after the write in flight) and its socket is
  // closed once it answers, or after a grace of 2 s; an HTTP session's
  // pending endpoint is cancelled and its connection dropped (an answer
  // being written is cut off). Sessions still in their TLS or WebSocket
  // handshake are dropped. Idempotent; the destructor calls it.
  void stop();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace voxl::net
