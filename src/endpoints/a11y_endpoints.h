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

#include "endpoints/a11y_service.h"
#include "endpoints/computer_use.h"
#include "net/endpoint.h"

namespace voxl::endpoints {

net::EndpointTable a11y_endpoints(A11yService& a11y, ComputerUse& computer);

}  // namespace voxl::endpoints
