// Internal to src/net: hands an upgraded HTTP connection to a viewer
// session. Instantiated for plain TCP and TLS streams in
// websocket_session.cpp. Loop thread only.
#pragma once

#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "net/access_policy.h"
#include "net/session_context.h"

namespace voxl::net {

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
using Request = boost::beast::http::request<boost::beast::http::string_body>;

template <class Stream>
void start_viewer_session(Stream&& stream, Request request, Role role, SessionContext& ctx);

}  // namespace voxl::net
