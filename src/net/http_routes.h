// What the server answers an HTTP request, decided without any socket: the
// brute-force back-off and the access policy first (a good ?token= on a GET
// answers 303 to the same URL without it and sets the voxl_token cookie),
// then the route ("/" and "/app.js" from the embedded
// client, "/stats", "/ws" upgrades, "/ws-check" (stream_check.h), then the
// registered endpoints, where a request of another site's page may only
// read: cross_site_reason). Kept apart from the sessions so it can be
// tested on Beast's test stream. Internal to src/net; loop thread.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <string>

#include "net/access_policy.h"
#include "net/session_context.h"
#include "stream/viewer/viewer_grant.h"

namespace voxl::net {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;

struct Routed {
  bool upgrade = false;  // a permitted WebSocket upgrade on /ws: hand over
  Role role = Role::kNone;
  // Who it is and what they may do (an upgrade's and an endpoint's).
  std::string user;
  Rights rights;
  // A users file's sign-in not checked yet: the session has ctx.sign_ins
  // check `user` and `password`, then routes the same request again.
  bool sign_in_pending = false;
  std::string password;
  std::string address;  // the client's (behind a trusted proxy, the one it names)
  // A permitted request for a path in ctx.settings.endpoints with an allowed
  // method: the session calls endpoint->handle(call, ...). `call` has the
  // request's headers (names in lower case) and the remote address.
  const Endpoint* endpoint = nullptr;
  EndpointRequest call;
  Response response;     // otherwise, the answer
  // After writing `response`, close the connection (repeated wrong
  // credentials, or an address in back-off).
  bool close = false;
};

// `remote_address` is the client's IP address as text ("" when unknown),
// passed on to endpoints and the key of the back-off table. A request for
// an endpoint gives its body up to `call.body` (moved, not copied); every
// other part of `req` is left as it was.
Routed route_request(Request& req, SessionContext& ctx, const std::string& remote_address);

// The server's own figures for /metrics (viewers, connections, wrong
// credentials), from its context.
void write_server_metrics(const SessionContext& ctx, MetricsText& out);

// What a viewer signed in as `user` with `rights` may do.
stream::ViewerGrant viewer_grant(const std::string& user, Rights rights, const std::string& address);

// For requests that could not even be parsed: 400, connection closes.
Response bad_request_response(const std::string& why);

}  // namespace voxl::net
