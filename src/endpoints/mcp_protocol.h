// The Model Context Protocol as /mcp speaks it (Streamable HTTP, answers as
// application/json, no server-sent stream): the JSON-RPC 2.0 envelope of a
// POST body, the tools voxl offers with their input schemas, and the
// reading of a tool call's arguments into what to run. Pure; any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/geometry.h"
#include "endpoints/a11y_request.h"
#include "endpoints/computer_use.h"
#include "net/query.h"

namespace voxl::endpoints::mcp {

// JSON-RPC error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;

// The protocol versions spoken, newest first; an initialize asking for
// another gets the newest.
inline constexpr const char* kProtocolVersions[] = {"2025-06-18", "2025-03-26", "2024-11-05"};
bool supported_version(std::string_view version);

// One message of a POST body.
struct Message {
  enum class Kind { kRequest, kNotification, kResponse };
  Kind kind = Kind::kRequest;
  nlohmann::json id;  // a request's id (string or number)
  std::string method;
  nlohmann::json params = nlohmann::json::object();
};

// A body is one message, or (2025-03-26) a batch of at most kMaxBatch.
inline constexpr size_t kMaxBatch = 16;
struct Parsed {
  std::vector<Message> messages;
  bool batch = false;
  // When the body as a whole is bad: the error answer to send (with a
  // null id), JSON-RPC code and message.
  std::optional<nlohmann::json> error;
  // Messages that were malformed individually: their error answers.
  std::vector<nlohmann::json> errors;
};
Parsed parse_body(std::string_view body);

nlohmann::json result(const nlohmann::json& id, nlohmann::json result);
nlohmann::json error(const nlohmann::json& id, int code, const std::string& message);

// initialize's result for the version the client asked for.
nlohmann::json initialize_result(std::string_view asked_version, std::string_view server_version);

// tools/list's result.
nlohmann::json tools_list();

// What a tools/call asks for.
struct ToolPlan {
  enum class Kind { kAction, kWait, kCursor, kRecordStart, kRecordStop, kA11yTree, kA11yFind, kA11yAct };
  Kind kind = Kind::kAction;
  std::string body;        // kAction: one action, as POST /computer takes it
  ComputerOptions options; // kAction, kWait (scale, screenshot), kCursor (scale)
  bool change = false;     // kWait: wait for a change (else for the screen to settle)
  std::chrono::milliseconds idle{300};
  std::chrono::milliseconds timeout{10000};
  std::optional<uint64_t> since;
  std::optional<Rect> region;  // kWait, in the agent's picture
  uint64_t record_id = 0;      // kRecordStop
  // kA11y*: what the accessibility tools ask (options: kA11yAct's settle).
  std::optional<A11yTreeRequest> a11y_tree;
  std::optional<A11yFindRequest> a11y_find;
  std::optional<A11yActRequest> a11y_act;
};

// Reads a tools/call's name and arguments. nullopt with `error` naming the
// argument ("arguments.x") for unknown tools and bad arguments.
std::optional<ToolPlan> plan_tool(const std::string& name, const nlohmann::json& arguments,
                                  std::chrono::milliseconds max_wait, net::ParamError& error);

}  // namespace voxl::endpoints::mcp
