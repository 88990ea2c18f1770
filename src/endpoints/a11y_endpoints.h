// The HTTP face of the accessibility tree: GET /a11y (the tree of the
// active window, the desktop or a subtree, bounds in the agent's picture),
// POST /a11y/find (elements by role, name, text and states) and
// POST /a11y/act (click, focus, set_text, select, scroll_into_view on an
// element, answered like /computer once the screen settled, with the
// element's new state). The questions run on the A11yService's thread.
//
// Threads: the loop thread; the services must outlive the server's
// sessions.
#pragma once

#include <chrono>
#include <memory>

#include "endpoints/a11y_request.h"
#include "endpoints/a11y_service.h"
#include "endpoints/computer_use.h"
#include "net/endpoint.h"

namespace voxl::endpoints {

struct A11yContext;

// The three questions, for the HTTP handlers and the MCP tools alike: each
// answers once with the HTTP reply (JSON, or a JSON error).
class A11yTools {
 public:
  A11yTools(A11yService& a11y, ComputerUse& computer);

  net::CancelFn tree(const A11yTreeRequest& request, net::ReplyFn reply) const;
  net::CancelFn find(const A11yFindRequest& request, net::ReplyFn reply) const;
  // `options` as /computer takes them (view_only: refused with 403).
  net::CancelFn act(A11yActRequest request, const ComputerOptions& options, net::ReplyFn reply) const;
  std::chrono::milliseconds max_wait() const;

 private:
  friend net::EndpointTable a11y_endpoints(const A11yTools& tools);
  std::shared_ptr<A11yContext> c_;
};

net::EndpointTable a11y_endpoints(const A11yTools& tools);

}  // namespace voxl::endpoints
