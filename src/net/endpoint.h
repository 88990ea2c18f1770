// Handlers that answer an HTTP path outside src/net (the agent endpoints:
// /screenshot, /wait, /record), with no Beast in sight. The server applies
// the access policy and the method check first, then hands the handler the
// request and a one-shot reply function. A handler may answer at once or
// much later (long polls, recordings); it returns a canceller that the
// session calls if the client goes away first.
//
// Threads: handlers, replies and cancellers run on the loop thread. A reply
// after the client left, or after cancel, is dropped harmlessly.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "platform/owned_file.h"

namespace voxl::net {

struct EndpointRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;
  std::string query;   // after '?', not decoded; may be empty
  std::string body;    // as sent (the server bounds its size)
  bool view_only = false;       // authenticated with the view-only password
  bool foreign_origin = false;  // an Origin header from another site (a browser page elsewhere)
};

struct EndpointReply {
  int status = 200;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // When set, the body is this file from its current offset to its end
  // instead of `body` (large recordings never sit in memory).
  // The file is closed when the reply is done.
  std::shared_ptr<platform::OwnedFile> file;
};

// A JSON error naming what was wrong: {"error": "...", "parameter": "..."}.
EndpointReply json_error(int status, const std::string& parameter, const std::string& message);

using ReplyFn = std::function<void(EndpointReply)>;
using CancelFn = std::function<void()>;

struct Endpoint {
  std::vector<std::string> methods;  // others get 405 with Allow
  std::function<CancelFn(const EndpointRequest&, ReplyFn)> handle;
  // POSTs must say "Content-Type: application/json" (else 415): an HTML
  // form cannot, so a foreign page cannot post to it without CORS.
  bool json_post = false;
};

using EndpointTable = std::map<std::string, Endpoint>;  // by exact path

}  // namespace voxl::net
