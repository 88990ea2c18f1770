// The HTTP face of the agent endpoints: /screenshot, /wait, /record,
// /record/start, /record/stop and /input, as handlers for the server's endpoint
// table. Parameters are checked here (400 with a JSON error naming the
// parameter; unknown recording ids 404); the services do the work.
//
// Threads: the handlers run on the loop thread; the services must outlive
// the server's sessions.
#pragma once

#include "endpoints/agent_services.h"
#include "net/endpoint.h"

namespace voxl::endpoints {

net::EndpointTable agent_endpoints(AgentServices services);

}  // namespace voxl::endpoints
