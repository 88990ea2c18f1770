#include "endpoints/a11y_request.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "base/json_fields.h"
#include "base/utf8.h"

namespace voxl::endpoints {
namespace {

using json = nlohmann::json;
using platform::A11yAction;

constexpr size_t kMaxBodyDepth = 8;
constexpr size_t kMaxId = 256;
constexpr size_t kMaxMatch = 1024;

constexpr std::array<std::pair<const char*, A11yAction>, 5> kActions{{{"click", A11yAction::kClick},
                                                                      {"focus", A11yAction::kFocus},
                                                                      {"set_text", A11yAction::kSetText},
                                                                      {"select", A11yAction::kSelect},
                                                                      {"scroll_into_view", A11yAction::kScrollIntoView}}};

bool fail(ActionError& e, const std::string& field, const std::string& what) { return e.set(field, what); }

std::optional<json> object_of(std::string_view body, ActionError& error) {
  if (!json_depth_within(body, kMaxBodyDepth)) return fail(error, "body", "body is nested too deeply"), std::nullopt;
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded()) return fail(error, "body", "body is not valid JSON"), std::nullopt;
  if (!doc.is_object()) return fail(error, "body", "body must be a JSON object"), std::nullopt;
  return doc;
}

bool scope_named(std::string_view s, platform::A11yScope& out) {
  if (s == "active") out.kind = platform::A11yScope::Kind::kActiveWindow;
  else if (s == "desktop") out.kind = platform::A11yScope::Kind::kDesktop;
  else return false;
  return true;
}

constexpr const char* kScopeHelp = "must be active (the active window) or desktop";

// The state names of platform::kA11yStateNames as bits.
std::optional<uint32_t> state_bit(std::string_view name) {
  for (size_t i = 0; i < std::size(platform::kA11yStateNames); ++i)
    if (name == platform::kA11yStateNames[i]) return 1u << i;
  return std::nullopt;
}

std::string state_list() {
  std::string out;
  for (const char* n : platform::kA11yStateNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace

const char* a11y_action_name(A11yAction a) {
  for (const auto& [name, action] : kActions)
    if (action == a) return name;
  return "click";
}

bool parse_a11y_query(const net::Query& q, A11yTreeRequest& out, net::ParamError& error) {
  if (const auto* scope = q.text("scope")) {
    if (!scope_named(*scope, out.scope)) {
      error = {"scope", std::string("scope ") + kScopeHelp};
      return false;
    }
  }
  if (const auto* root = q.text("root")) {
    if (root->empty() || root->size() > kMaxId) {
      error = {"root", "root must be an element id from /a11y"};
      return false;
    }
    if (q.has("scope")) {
      error = {"scope", "scope cannot be given with root (the root is the scope)"};
      return false;
    }
    out.scope = {platform::A11yScope::Kind::kNode, *root};
  }
  int64_t depth = out.max_depth, nodes = out.max_nodes, timeout = out.timeout.count();
  if (!q.integer("max_depth", 0, kA11yMaxDepth, depth, error) || !q.integer("max_nodes", 1, kA11yMaxNodes, nodes, error) ||
      !q.integer("timeout", 1, kA11yMaxTimeout.count(), timeout, error) || !parse_scale(q, out.scale, error))
    return false;
  out.max_depth = int(depth);
  out.max_nodes = int(nodes);
  out.timeout = std::chrono::milliseconds(timeout);
  return true;
}

namespace {

// Where to look and how far, from a JSON object: scope, root, max_depth,
// max_nodes, timeout, scale, max_width, max_height.
bool read_tree_fields(const json& doc, A11yTreeRequest& out, ActionError& error) {
  JsonFields f(doc);
  if (f.has("scope")) {
    const auto s = f.string("scope", 16);
    if (!s || !scope_named(*s, out.scope)) return fail(error, "scope", std::string("scope ") + kScopeHelp);
  }
  if (f.has("root")) {
    const auto r = f.string("root", kMaxId);
    if (!r || r->empty()) return fail(error, "root", "root must be an element id from /a11y");
    if (f.has("scope")) return fail(error, "scope", "scope cannot be given with root");
    out.scope = {platform::A11yScope::Kind::kNode, std::string(*r)};
  }
  const auto depth = f.integer("max_depth", 0, kA11yMaxDepth);
  const auto nodes = f.integer("max_nodes", 1, kA11yMaxNodes);
  const auto timeout = f.integer("timeout", 1, kA11yMaxTimeout.count());
  const auto scale = f.number("scale", 0, 1e9);
  const auto width = f.integer("max_width", 0, int64_t{1} << 40);
  const auto height = f.integer("max_height", 0, int64_t{1} << 40);
  if (!f.ok()) {
    const std::string bad = f.bad_field();
    return fail(error, bad, bad + " is out of range or not a number");
  }
  if (depth) out.max_depth = int(*depth);
  if (nodes) out.max_nodes = int(*nodes);
  if (timeout) out.timeout = std::chrono::milliseconds(*timeout);
  net::ParamError pe;
  if (!make_scale(scale, width, height, out.scale, pe)) return fail(error, pe.parameter, pe.message);
  return true;
}

constexpr std::array<const char*, 8> kTreeFields{"root",      "scope",    "max_depth", "max_nodes",
                                                 "timeout",   "scale",    "max_width", "max_height"};

// The first key of `doc` that is in neither list, if any.
std::optional<std::string> unknown_key(const json& doc, std::initializer_list<const char*> more) {
  for (const auto& [key, value] : doc.items()) {
    const auto is = [&](const char* k) { return key == k; };
    if (std::none_of(kTreeFields.begin(), kTreeFields.end(), is) && std::none_of(more.begin(), more.end(), is))
      return key;
  }
  return std::nullopt;
}

}  // namespace

std::optional<A11yTreeRequest> parse_a11y_tree(std::string_view body, ActionError& error) {
  auto doc = object_of(body, error);
  if (!doc) return std::nullopt;
  if (const auto key = unknown_key(*doc, {}))
    return fail(error, *key, "unknown field \"" + key->substr(0, 64) + "\""), std::nullopt;
  A11yTreeRequest out;
  if (!read_tree_fields(*doc, out, error)) return std::nullopt;
  return out;
}

std::optional<A11yFindRequest> parse_a11y_find(std::string_view body, ActionError& error) {
  auto doc = object_of(body, error);
  if (!doc) return std::nullopt;
  if (const auto key = unknown_key(*doc, {"role", "name", "text", "exact", "states", "max_results"}))
    return fail(error, *key, "unknown field \"" + key->substr(0, 64) + "\""), std::nullopt;
  JsonFields f(*doc);
  A11yFindRequest out;
  const auto text_field = [&](const char* key, std::optional<std::string>& to) {
    if (!f.has(key)) return true;
    const auto s = f.string(key, kMaxMatch);
    if (!s || !decode_utf8(*s)) return fail(error, key, std::string(key) + " must be text of at most 1024 bytes");
    to = std::string(*s);
    return true;
  };
  if (!text_field("role", out.role) || !text_field("name", out.name) || !text_field("text", out.text))
    return std::nullopt;
  if (f.has("exact")) {
    const auto e = f.boolean("exact");
    if (!e) return fail(error, "exact", "exact must be true or false"), std::nullopt;
    out.exact = *e;
  }
  if (doc->contains("states")) {
    const json& s = (*doc)["states"];
    if (!s.is_array() || s.size() > std::size(platform::kA11yStateNames))
      return fail(error, "states", "states must be a list of state names (" + state_list() + ")"), std::nullopt;
    for (const json& name : s) {
      const auto bit = name.is_string() ? state_bit(name.get_ref<const std::string&>()) : std::nullopt;
      if (!bit) return fail(error, "states", "states: each must be one of " + state_list()), std::nullopt;
      out.states |= *bit;
    }
  }
  if (!out.role && !out.name && !out.text && out.states == 0)
    return fail(error, "body", "say what to find: role, name, text or states"), std::nullopt;
  const auto results = f.integer("max_results", 1, 1000);
  if (!f.ok()) return fail(error, "max_results", "max_results must be a whole number from 1 to 1000"), std::nullopt;
  if (results) out.max_results = int(*results);
  if (!read_tree_fields(*doc, out.tree, error)) return std::nullopt;
  return out;
}

std::optional<A11yActRequest> parse_a11y_act(std::string_view body, ActionError& error) {
  auto doc = object_of(body, error);
  if (!doc) return std::nullopt;
  for (const auto& [key, value] : doc->items())
    if (key != "id" && key != "action" && key != "text")
      return fail(error, key, "unknown field \"" + key.substr(0, 64) + "\" (id, action, text)"), std::nullopt;
  JsonFields f(*doc);
  A11yActRequest out;
  const auto id = f.string("id", kMaxId);
  if (!id || id->empty()) return fail(error, "id", "id must be an element id from /a11y"), std::nullopt;
  out.id = std::string(*id);
  std::string names;
  for (const auto& [name, action] : kActions) names += (names.empty() ? "" : ", ") + std::string(name);
  const auto action = f.string("action", 32);
  if (!action) return fail(error, "action", "action must be one of " + names), std::nullopt;
  bool known = false;
  for (const auto& [name, a] : kActions)
    if (*action == name) out.action = a, known = true;
  if (!known) return fail(error, "action", "action must be one of " + names), std::nullopt;
  if (f.has("text")) {
    const auto t = f.string("text", kA11yMaxText);
    if (!t || !decode_utf8(*t)) return fail(error, "text", "text must be UTF-8 text of at most 64 KiB"), std::nullopt;
    if (out.action != A11yAction::kSetText) return fail(error, "text", "text is for set_text only"), std::nullopt;
    out.text = std::string(*t);
  } else if (out.action == A11yAction::kSetText) {
    return fail(error, "text", "set_text needs the text"), std::nullopt;
  }
  return out;
}

}  // namespace voxl::endpoints
