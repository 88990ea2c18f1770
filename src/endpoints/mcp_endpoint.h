// /mcp: an MCP server over the Streamable HTTP transport, so agent
// frameworks that speak MCP drive the desktop with voxl's tools
// (mcp_protocol.h): screenshots as image content, actions answered once the
// screen settled, waits for a settle or a change, the pointer, recordings,
// and the accessibility tree (find and act on elements).
// Each POST carries JSON-RPC messages and is answered with
// application/json; there is no server-initiated stream (GET answers 405)
// and no session state: every request stands alone. The server's access
// policy (credentials) applies before the handler; a foreign Origin is
// refused here, as the transport's rules require.
//
// Threads: the loop thread; `computer` and `recordings` must outlive the
// server's sessions.
#pragma once

#include <string>

#include "endpoints/a11y_endpoints.h"
#include "endpoints/computer_use.h"
#include "endpoints/record_service.h"
#include "net/endpoint.h"

namespace voxl::endpoints {

// The largest MP4 record_stop returns inline (base64 in the answer);
// longer recordings are for /record/stop.
inline constexpr uint64_t kMaxMcpRecordingBytes = 16u << 20;

// `a11y`: the accessibility tools (a11y_tree, a11y_find, a11y_act).
net::EndpointTable mcp_endpoints(ComputerUse& computer, RecordService& recordings, std::string server_version,
                                 A11yTools a11y);

}  // namespace voxl::endpoints
