// The HTTP face of computer use: POST /computer (one action of Anthropic's
// or OpenAI's computer-use schema, answered once the screen settled, with
// the settled screenshot when asked) and GET /cursor (where the pointer is
// and its shape). Both take the agent's picture size (scale, max_width,
// max_height) so that coordinates go both ways without drift.
//
// Threads: the loop thread; `computer` must outlive the server's sessions.
#pragma once

#include "endpoints/computer_use.h"
#include "net/endpoint.h"

namespace voxl::endpoints {

net::EndpointTable computer_endpoints(ComputerUse& computer);

// The answer to a finished action: its JSON, with the screenshot as
// {"media_type": "image/png", "data": base64} under "screenshot" when one
// was taken.
net::EndpointReply computer_reply(ComputerOutcome outcome);

}  // namespace voxl::endpoints
