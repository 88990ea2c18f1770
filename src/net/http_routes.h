// What the server answers an HTTP request, decided without any socket: the
// access policy first, then the route ("/" and "/app.js" from the embedded
// client, "/stats", "/ws" upgrades, then the registered endpoints). Kept apart from the sessions so it can
// be tested on Beast's test stream. Internal to src/net; loop thread.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <string>

#include "net/access_policy.h"
#include "net/session_context.h"

namespace voxl::net {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;

struct Routed {
  bool upgrade = false;  // a permitted WebSocket upgrade on /ws: hand over
  Role role = Role::kNone;
  // A permitted request for a path in ctx.endpoints with an allowed
  // method: the session calls endpoint->handle(call, ...).
  const Endpoint* endpoint = nullptr;
  EndpointRequest call;
  Response response;     // otherwise, the answer
};

Routed route_request(const Request& req, SessionContext& ctx);

// For requests that could not even be parsed: 400, connection closes.
Response bad_request_response(const std::string& why);

}  // namespace voxl::net
