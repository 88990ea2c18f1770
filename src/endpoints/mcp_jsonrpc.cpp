// MCP's JSON-RPC framing: the protocol versions, result and error
// messages, a POST body read into messages (or the error answers for the
// malformed ones), and initialize's answer. The tools are mcp_protocol.cpp's.
#include <algorithm>

#include "base/json_depth.h"
#include "endpoints/mcp_protocol.h"

namespace voxl::endpoints::mcp {

using json = nlohmann::json;

namespace {

// Deeper JSON is refused before it is parsed.
constexpr size_t kMaxDepth = 32;

}  // namespace

bool supported_version(std::string_view version) {
  return std::any_of(std::begin(kProtocolVersions), std::end(kProtocolVersions),
                     [&](const char* v) { return version == v; });
}

json result(const json& id, json r) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(r)}}; }

json error(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

namespace {

// One message object; its error answer in `bad` when it is malformed (and
// has an id to answer to, or none).
std::optional<Message> read_message(const json& m, std::optional<json>& bad) {
  if (!m.is_object()) return bad = error(nullptr, kInvalidRequest, "a message must be a JSON object"), std::nullopt;
  const json id = m.contains("id") ? m["id"] : json();
  const bool id_ok = !m.contains("id") || id.is_string() || id.is_number_integer();
  if (!id_ok) return bad = error(nullptr, kInvalidRequest, "id must be a string or a whole number"), std::nullopt;
  if (!m.contains("jsonrpc") || m["jsonrpc"] != "2.0")
    return bad = error(id, kInvalidRequest, "jsonrpc must be \"2.0\""), std::nullopt;
  Message out;
  if (m.contains("method")) {
    if (!m["method"].is_string()) return bad = error(id, kInvalidRequest, "method must be a string"), std::nullopt;
    out.method = m["method"].get<std::string>();
    out.kind = m.contains("id") ? Message::Kind::kRequest : Message::Kind::kNotification;
    out.id = id;
    if (m.contains("params")) {
      if (!m["params"].is_object()) return bad = error(id, kInvalidParams, "params must be an object"), std::nullopt;
      out.params = m["params"];
    }
    return out;
  }
  if (m.contains("result") || m.contains("error")) {
    out.kind = Message::Kind::kResponse;
    out.id = id;
    return out;
  }
  return bad = error(id, kInvalidRequest, "a message needs a method (or is a response)"), std::nullopt;
}

}  // namespace

Parsed parse_body(std::string_view body) {
  Parsed p;
  if (!json_depth_within(body, kMaxDepth)) {
    p.error = error(nullptr, kInvalidRequest, "the message is nested too deeply");
    return p;
  }
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded()) {
    p.error = error(nullptr, kParseError, "the body is not valid JSON");
    return p;
  }
  std::vector<const json*> items;
  if (doc.is_array()) {
    p.batch = true;
    if (doc.empty() || doc.size() > kMaxBatch) {
      p.error = error(nullptr, kInvalidRequest,
                      "a batch holds 1 to " + std::to_string(kMaxBatch) + " messages");
      return p;
    }
    for (const json& m : doc) items.push_back(&m);
  } else {
    items.push_back(&doc);
  }
  for (const json* m : items) {
    std::optional<json> bad;
    if (auto msg = read_message(*m, bad))
      p.messages.push_back(std::move(*msg));
    else
      p.errors.push_back(std::move(*bad));
  }
  return p;
}

json initialize_result(std::string_view asked, std::string_view server_version) {
  return {{"protocolVersion", supported_version(asked) ? std::string(asked) : std::string(kProtocolVersions[0])},
          {"capabilities", {{"tools", {{"listChanged", false}}}}},
          {"serverInfo", {{"name", "voxl"}, {"version", std::string(server_version)}}},
          {"instructions",
           "voxl is a desktop you can see and drive. Take a screenshot, act (click, type_text, press_keys, scroll, "
           "drag), and read the screenshot each action returns once the screen has settled. Coordinates are pixels "
           "of the picture you work in: pass the same max_width/max_height (or scale) to every call. Use "
           "wait_for_change with since=<seq> to wait, without polling, for the screen to change after what you saw."}};
}

}  // namespace voxl::endpoints::mcp
