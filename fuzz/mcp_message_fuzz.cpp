// POST /mcp: JSON-RPC bodies (one message or a batch), and every
// tools/call's arguments read into a plan; whatever comes in, the answers
// are well-formed JSON-RPC and plans stay within their bounds.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "endpoints/mcp_protocol.h"
#include "fuzz_check.h"

using namespace voxl;
namespace mcp = endpoints::mcp;

VOXL_FUZZ_TARGET(mcp_message) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const mcp::Parsed p = mcp::parse_body(body);
  if (p.error) {
    FUZZ_CHECK(p.messages.empty());
    const auto j = fuzz::parse_json_or_abort(p.error->dump());
    FUZZ_CHECK(j["jsonrpc"] == "2.0" && j["error"]["code"].is_number_integer());
    return 0;
  }
  FUZZ_CHECK(p.messages.size() + p.errors.size() >= 1 && p.messages.size() + p.errors.size() <= mcp::kMaxBatch);
  for (const auto& e : p.errors) FUZZ_CHECK(e.contains("error") && e["error"]["message"].is_string());
  const auto max_wait = std::chrono::milliseconds(300000);
  for (const auto& m : p.messages) {
    FUZZ_CHECK(m.params.is_object());
    if (m.kind == mcp::Message::Kind::kRequest) FUZZ_CHECK(m.id.is_string() || m.id.is_number_integer());
    if (m.method != "tools/call") continue;
    const std::string name = m.params.contains("name") && m.params["name"].is_string()
                                 ? m.params["name"].get<std::string>()
                                 : std::string();
    const nlohmann::json args = m.params.contains("arguments") ? m.params["arguments"] : nlohmann::json::object();
    net::ParamError e;
    const auto plan = mcp::plan_tool(name, args, max_wait, e);
    if (!plan) {
      FUZZ_CHECK(!e.message.empty());
      (void)fuzz::parse_json_or_abort(mcp::error(m.id, mcp::kInvalidParams, e.parameter + " " + e.message).dump());
      continue;
    }
    FUZZ_CHECK(plan->timeout <= max_wait && plan->idle <= max_wait);
    FUZZ_CHECK(plan->options.settle_cap <= max_wait && plan->options.settle_idle <= max_wait);
    if (plan->kind == mcp::ToolPlan::Kind::kAction) (void)fuzz::parse_json_or_abort(plan->body);
  }
  // What the server answers to an initialize is always well-formed.
  (void)fuzz::parse_json_or_abort(mcp::initialize_result(body.substr(0, 16), "0").dump());
  return 0;
}
