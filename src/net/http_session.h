// Serving one accepted connection over HTTP: what the listener
// (http_server.cpp) hands over, without Beast in sight.
//
// Threads: the loop thread. The session keeps `owner` (which keeps `ctx`
// alive) as long as it runs.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "base/rate_limit.h"
#include "net/connection_limits.h"
#include "net/session_context.h"

namespace voxl::net {

// What every HTTP session of one server shares besides SessionContext: the
// rate limit of the log lines about faults. Loop thread only.
struct SessionShared {
  RateLimit fault_log{std::chrono::seconds(5)};
};

// Why a connection is answered 503 instead of being served.
struct OverCap {
  std::string limit;   // the flag: "--max-connections" or "--max-connections-per-address"
  std::string reason;  // for the JSON answer
};

// The 503 a connection over a cap gets, whatever it asked (a WebSocket
// upgrade too): Retry-After and the cap in JSON.
EndpointReply over_cap_reply(const OverCap& cap);

// Serves `socket` (after a TLS handshake when `tls` is set) until the
// client leaves or the connection becomes a viewer's; with `over_cap`, one
// request is answered 503 (Retry-After, the cap in JSON) and it closes.
// `token` counts the connection against the limits while it lives.
void start_http_session(boost::asio::ip::tcp::socket socket, ConnectionToken token, boost::asio::ssl::context* tls,
                        SessionContext& ctx, std::shared_ptr<SessionShared> shared, std::shared_ptr<void> owner,
                        std::optional<OverCap> over_cap);

}  // namespace voxl::net
