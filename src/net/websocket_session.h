// Internal to src/net: hands an upgraded HTTP connection to a viewer
// session. Instantiated for plain TCP and TLS streams in
// websocket_session.cpp. Loop thread only.
#pragma once

#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/teardown.hpp>

#include <memory>
#include <utility>

#include "net/access_policy.h"
#include "net/connection_limits.h"
#include "net/session_context.h"
#include "stream/viewer/viewer_grant.h"

namespace voxl::net {

// A TCP stream that carries its connection's place in the server's
// connection limits wherever it is moved (from the HTTP session into a
// viewer session): the count drops when the stream is destroyed.
class CountedTcpStream : public boost::beast::tcp_stream {
 public:
  CountedTcpStream(boost::asio::ip::tcp::socket socket, ConnectionToken token)
      : boost::beast::tcp_stream(std::move(socket)), token_(std::move(token)) {}

 private:
  ConnectionToken token_;
};

// What Beast's WebSocket close does for a tcp_stream, for this one (its own
// generic overload would otherwise win over the base class's).
inline void teardown(boost::beast::role_type role, CountedTcpStream& stream, boost::beast::error_code& ec) {
  boost::beast::websocket::teardown(role, stream.socket(), ec);
}
template <class TeardownHandler>
void async_teardown(boost::beast::role_type role, CountedTcpStream& stream, TeardownHandler&& handler) {
  boost::beast::websocket::async_teardown(role, stream.socket(), std::forward<TeardownHandler>(handler));
}

using PlainStream = CountedTcpStream;
using TlsStream = boost::beast::ssl_stream<CountedTcpStream>;
using Request = boost::beast::http::request<boost::beast::http::string_body>;

// `owner` keeps `ctx` (and its session registry) alive for as long as the
// viewer session lives.
template <class Stream>
void start_viewer_session(Stream&& stream, Request request, stream::ViewerGrant grant, SessionContext& ctx,
                          std::shared_ptr<void> owner);

}  // namespace voxl::net
