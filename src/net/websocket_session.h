// Internal to src/net: hands an upgraded HTTP connection, plain or TLS, to
// a viewer session. Loop thread only.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <memory>

#include "net/access_policy.h"
#include "net/any_stream.h"
#include "net/session_context.h"
#include "stream/viewer/viewer_grant.h"

namespace voxl::net {

using Request = boost::beast::http::request<boost::beast::http::string_body>;

// `owner` keeps `ctx` (and its session registry) alive for as long as the
// viewer session lives.
void start_viewer_session(AnyStream&& stream, Request request, stream::ViewerGrant grant, SessionContext& ctx,
                          std::shared_ptr<void> owner);

}  // namespace voxl::net
