// What agents ask of the accessibility tree, read from untrusted text:
// GET /a11y's query, and the JSON bodies of POST /a11y/find and
// POST /a11y/act (the MCP tools take the same objects). Pure functions;
// any thread; they never throw.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "endpoints/input_actions.h"
#include "endpoints/picture_scale.h"
#include "net/query.h"
#include "platform/accessibility.h"

namespace voxl::endpoints {

// The most a caller may ask for; the defaults are what GET /a11y takes
// without parameters.
inline constexpr int kA11yMaxDepth = 64;
inline constexpr int kA11yDefaultDepth = 40;
inline constexpr int kA11yMaxNodes = 20000;
inline constexpr int kA11yDefaultNodes = 3000;
inline constexpr std::chrono::milliseconds kA11yDefaultTimeout{3000};
inline constexpr std::chrono::milliseconds kA11yMaxTimeout{30000};
// Text given to set_text at most (bytes).
inline constexpr size_t kA11yMaxText = 64 * 1024;

struct A11yTreeRequest {
  platform::A11yScope scope;
  int max_depth = kA11yDefaultDepth;
  int max_nodes = kA11yDefaultNodes;
  std::chrono::milliseconds timeout = kA11yDefaultTimeout;
  ScaleSpec scale;  // the picture the bounds are given in
};

// ?scope=active|desktop, ?root=ID (a subtree: the scope is the node),
// ?max_depth, ?max_nodes, ?timeout (ms), ?scale/max_width/max_height.
bool parse_a11y_query(const net::Query& q, A11yTreeRequest& out, net::ParamError& error);

// The same as a JSON object (the MCP tool's arguments): {"scope", "root",
//  "max_depth", "max_nodes", "timeout", "scale", "max_width", "max_height"}.
std::optional<A11yTreeRequest> parse_a11y_tree(std::string_view body, ActionError& error);

struct A11yFindRequest {
  A11yTreeRequest tree;  // where to look ("root": within that node)
  std::optional<std::string> role;  // exact, as /a11y names roles
  std::optional<std::string> name;  // in the name
  std::optional<std::string> text;  // in the name, description or value
  bool exact = false;               // name and text equal, not contained (case kept)
  uint32_t states = 0;              // every one of these (A11yState bits)
  int max_results = 50;
};

// {"role", "name", "text", "exact", "states": [...], "root", "scope",
//  "max_results", "max_depth", "max_nodes", "timeout", "scale",
//  "max_width", "max_height"}; at least one of role, name, text, states.
std::optional<A11yFindRequest> parse_a11y_find(std::string_view body, ActionError& error);

struct A11yActRequest {
  std::string id;
  platform::A11yAction action = platform::A11yAction::kClick;
  std::string text;  // set_text
};

// {"id": "...", "action": "click" | "focus" | "set_text" | "select" |
//  "scroll_into_view", "text": "..." (set_text)}.
std::optional<A11yActRequest> parse_a11y_act(std::string_view body, ActionError& error);

const char* a11y_action_name(platform::A11yAction a);

}  // namespace voxl::endpoints
