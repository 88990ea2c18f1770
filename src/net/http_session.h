// Serving one accepted connection over HTTP: what the listener
// (http_server.cpp) hands over, without Beast in sight. The session is
// Beast's half (bytes, parsing, writing); what happens when is
// HttpExchange's (http_exchange.h).
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

#include "net/connection_limits.h"
#include "net/http_exchange.h"
#include "net/session_context.h"

namespace voxl::net {

// Serves `socket` (after a TLS handshake when `tls` is set) until the
// client leaves or the connection becomes a viewer's; with `over_cap`, one
// request is answered 503 (Retry-After, the cap in JSON) and it closes.
// `token` counts the connection against the limits while it lives.
void start_http_session(boost::asio::ip::tcp::socket socket, ConnectionToken token, boost::asio::ssl::context* tls,
                        SessionContext& ctx, std::shared_ptr<SessionShared> shared, std::shared_ptr<void> owner,
                        std::optional<OverCap> over_cap);

}  // namespace voxl::net
