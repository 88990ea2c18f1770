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
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "net/query.h"
#include "net/rights.h"
#include "platform/owned_file.h"

namespace voxl::net {

struct EndpointRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;
  std::string query;   // after '?', not decoded; may be empty
  std::string body;    // as sent (at most the endpoint's max_body bytes)
  // The request's headers, names in lower case, as sent (the server bounds
  // their size): e.g. "range", "if-range", "content-type".
  std::vector<std::pair<std::string, std::string>> headers;
  std::string remote_address;   // the client's IP address as text; "" when unknown
  bool view_only = false;       // may look, not act (a view-only password, or no 'control')
  // Who signed in ("" for the token, or where no credential is needed)
  // and what they may do (net/rights.h).
  std::string user;
  Rights rights = Rights::all();
  // Sent by a page of another site (net::cross_site_reason). The server
  // refuses such requests itself for every method but GET, HEAD and
  // OPTIONS; a GET handler that starts work on the user's behalf checks it.
  bool foreign_origin = false;

  // The header `name` (lower case) as sent, or nullopt.
  std::optional<std::string_view> header(std::string_view name) const;
  // A view-only caller's refusal to `what` ("send input"), naming the user
  // and the right missing when a users file's user signed in:
  // "alice cannot send input: the users file does not give them the
  // control right"; else "view-only credentials cannot send input".
  std::string cannot(std::string_view what) const;
};

// A body made piece by piece while the answer is written: a part of a file
// read from the disk off the loop, a zip built on the fly. The session asks
// for the next piece only once the one before has been written, so a slow
// client holds at most one piece in memory.
//
// Threads: pull() is called on the loop thread; `deliver` must be called
// once per pull, on the loop thread. The bytes passed stay valid until the
// next pull() or the source's destruction. The session drops the source
// (possibly while a pull is pending: a late delivery must then do nothing)
// when the client goes away.
class BodySource {
 public:
  // `bytes` may be empty only with `done`; a non-empty `error` means the
  // body cannot be completed: the connection is dropped (the client sees a
  // cut-off body, never a wrong one).
  using Deliver = std::function<void(std::string_view bytes, bool done, const std::string& error)>;
  virtual ~BodySource() = default;
  virtual void pull(Deliver deliver) = 0;
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
  // When set, the body comes from this source instead (and `file` and
  // `body` are ignored): `content_length` bytes, or, when unknown, sent
  // chunked. HEAD requests get the headers and no pull at all.
  std::shared_ptr<BodySource> source;
  std::optional<uint64_t> content_length;
};

// A JSON error naming what was wrong: {"error": "...", "parameter": "..."}.
EndpointReply json_error(int status, const std::string& parameter, const std::string& message);

using ReplyFn = std::function<void(EndpointReply)>;
using CancelFn = std::function<void()>;

// The request's query, parsed, when every name in it is one of `known`;
// otherwise nullopt, after answering 400 naming the parameter that is
// malformed or not one of this path's.
std::optional<Query> known_query(const EndpointRequest& req, const std::vector<std::string>& known, ReplyFn& reply);

// EndpointRequest::cannot for `user` ("" for the token or a view-only password).
std::string view_only_refusal(std::string_view user, std::string_view what);

struct Endpoint {
  std::vector<std::string> methods;  // others get 405 with Allow
  // The request is the handler's to take from (the body of a large upload
  // is moved, not copied): the session does not read it after the call.
  std::function<CancelFn(EndpointRequest&, ReplyFn)> handle;
  // The largest request body taken; a longer one is answered 413 and the
  // connection closes.
  size_t max_body = 64 * 1024;
  // Every call that may change something (not GET, HEAD or OPTIONS) is
  // recorded in the audit trail; with this, reads too (what they take away
  // from the desktop: a download, a recording).
  bool audit_reads = false;
};

using EndpointTable = std::map<std::string, Endpoint>;  // by exact path

}  // namespace voxl::net
