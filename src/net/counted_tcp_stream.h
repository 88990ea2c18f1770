// Internal to src/net: the TCP stream of one connection, carrying its place
// in the server's connection limits. Loop thread only.
#pragma once

#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/teardown.hpp>

#include <utility>

#include "net/connection_limits.h"

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

}  // namespace voxl::net
