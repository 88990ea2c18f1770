#include "endpoints/mcp_protocol.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "base/json_number.h"

namespace voxl::endpoints::mcp {

using json = nlohmann::json;

namespace {

constexpr const char* kActObserve =
    " It returns once the screen has settled after the action (it started to change within react_ms, then nothing "
    "changed for settle_ms; from the display's damage, no fixed sleep), with a screenshot taken then unless "
    "screenshot is false. Act, then look at that "
    "screenshot before the next action. Its seq can be passed as since to wait_for_change to learn whether the "
    "screen changed after that screenshot.";

// The arguments every action tool shares.
json action_properties() {
  return {
      {"screenshot", {{"type", "boolean"}, {"description", "Answer with the settled screenshot (default true)."}}},
      {"cursor", {{"type", "boolean"}, {"description", "Draw the pointer into the screenshot (default true)."}}},
      {"max_width",
       {{"type", "integer"},
        {"minimum", 16},
        {"maximum", 16384},
        {"description", "Work in a picture at most this wide (coordinates in and out are in it)."}}},
      {"max_height",
       {{"type", "integer"}, {"minimum", 16}, {"maximum", 16384}, {"description", "Likewise, at most this high."}}},
      {"scale", {{"type", "number"}, {"description", "Work in a picture this fraction of the desktop (0.05 to 1)."}}},
      {"react_ms",
       {{"type", "integer"},
        {"minimum", 0},
        {"description", "How long the screen may take to start answering the action (default 1000)."}}},
      {"settle_ms",
       {{"type", "integer"}, {"minimum", 0}, {"description", "How long the screen must stay still (default 300)."}}},
      {"settle_timeout_ms",
       {{"type", "integer"}, {"minimum", 1}, {"description", "Give up waiting to settle after this (default 10000)."}}},
  };
}

json point_schema(const char* what) {
  return {{"type", "integer"}, {"minimum", 0}, {"description", what}};
}

// A rectangle of the agent's picture.
json region_schema() {
  json p = json::object();
  for (const char* f : {"x", "y", "width", "height"}) p[f] = {{"type", "integer"}, {"minimum", 0}};
  return {{"type", "object"}, {"properties", p}, {"description", "Only changes in this part of your picture count."}};
}

json tool(const char* name, const std::string& description, json properties, std::vector<std::string> required,
          bool acts) {
  if (acts) properties.update(action_properties());
  json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = required;
  return {{"name", name}, {"description", description}, {"inputSchema", std::move(schema)}};
}

struct Args {
  const json& a;
  net::ParamError& error;

  bool fail(const std::string& name, const std::string& message) {
    error = {"arguments." + name, message};
    return false;
  }
  bool only(std::initializer_list<const char*> known, bool acts) {
    static constexpr const char* kShared[] = {"screenshot", "cursor",    "max_width", "max_height",
                                              "scale",      "settle_ms", "react_ms",  "settle_timeout_ms"};
    for (const auto& item : a.items()) {
      const std::string& k = item.key();
      if (std::any_of(known.begin(), known.end(), [&](const char* n) { return k == n; })) continue;
      if (acts && std::any_of(std::begin(kShared), std::end(kShared), [&](const char* n) { return k == n; })) continue;
      return fail(k, "is not an argument of this tool");
    }
    return true;
  }
  bool integer(const char* name, int64_t min, int64_t max, std::optional<int64_t>& out) {
    if (!a.contains(name)) return true;
    int64_t n = 0;
    if (const auto fault = json_integer(a[name], min, max, n); fault != JsonNumberFault::kNone)
      return fail(name, json_integer_rule(fault, min, max));
    out = n;
    return true;
  }
  // A finite number; its range is make_scale's to check.
  bool number(const char* name, std::optional<double>& out) {
    if (!a.contains(name)) return true;
    double d = 0;
    if (json_number(a[name], -HUGE_VAL, HUGE_VAL, d) != JsonNumberFault::kNone) return fail(name, "must be a number");
    out = d;
    return true;
  }
  bool boolean(const char* name, bool& out) {
    if (!a.contains(name)) return true;
    if (!a[name].is_boolean()) return fail(name, "must be true or false");
    out = a[name].get<bool>();
    return true;
  }
  bool string(const char* name, bool required, std::string& out) {
    if (!a.contains(name)) return !required || fail(name, "is required");
    if (!a[name].is_string()) return fail(name, "must be a string");
    out = a[name].get<std::string>();
    return true;
  }
  // The options every action tool shares.
  bool options(std::chrono::milliseconds max_wait, ComputerOptions& o) {
    o.screenshot = true;
    std::optional<int64_t> w, h, idle, cap, react;
    std::optional<double> scale;
    if (!number("scale", scale)) return false;
    if (!boolean("screenshot", o.screenshot) || !boolean("cursor", o.cursor) || !integer("max_width", 0, 1 << 20, w) ||
        !integer("max_height", 0, 1 << 20, h) || !integer("settle_ms", 0, max_wait.count(), idle) ||
        !integer("react_ms", 0, max_wait.count(), react) ||
        !integer("settle_timeout_ms", 1, max_wait.count(), cap))
      return false;
    net::ParamError e;
    if (!make_scale(scale, w, h, o.scale, e)) return fail(e.parameter, e.message);
    if (idle) o.settle_idle = std::chrono::milliseconds(*idle);
    if (react) o.react = std::chrono::milliseconds(*react);
    o.settle_cap = std::min(cap ? std::chrono::milliseconds(*cap) : o.settle_cap, max_wait);
    return true;
  }
  // A whole-number pixel position of the agent's picture; range checks are
  // the action parser's.
  bool position(const char* x, const char* y, bool required, json& out) {
    std::optional<int64_t> px, py;
    if (!integer(x, 0, 1 << 20, px) || !integer(y, 0, 1 << 20, py)) return false;
    if (!px && !py) return !required || fail(x, "is required");
    if (!px) return fail(x, "is required with " + std::string(y));
    if (!py) return fail(y, "is required with " + std::string(x));
    out = json::array({*px, *py});
    return true;
  }
  // A rectangle {x, y, width, height}.
  bool rect(const char* name, std::optional<Rect>& out) {
    if (!a.contains(name)) return true;
    const json& r = a[name];
    if (!r.is_object()) return fail(name, "must be {x, y, width, height}");
    int v[4];
    const char* fields[4] = {"x", "y", "width", "height"};
    for (int i = 0; i < 4; ++i) {
      const int64_t lo = i < 2 ? 0 : 1, hi = 1 << 20;
      int64_t n = 0;
      const auto fault = r.contains(fields[i]) ? json_integer(r[fields[i]], lo, hi, n) : JsonNumberFault::kNotANumber;
      if (fault != JsonNumberFault::kNone) return fail(std::string(name) + "." + fields[i], json_integer_rule(fault, lo, hi));
      v[i] = int(n);
    }
    if (r.size() != 4) return fail(name, "takes only x, y, width and height");
    out = Rect{v[0], v[1], v[2], v[3]};
    return true;
  }
};

}  // namespace

json tools_list() {
  json tools = json::array();
  tools.push_back(tool("screenshot",
                       "Take a PNG screenshot of the desktop now (with the pointer drawn in unless cursor is false). Its "
                       "seq covers everything drawn before it: pass it as since to wait_for_change.",
                       json::object(), {}, true));
  tools.push_back(tool("click", std::string("Click at x, y (button left, right or middle; count 1 to 3 for double and "
                                            "triple clicks; modifiers such as \"shift\" or \"ctrl+shift\" held).") +
                                    kActObserve,
                       {{"x", point_schema("Pixels from the left of your picture.")},
                        {"y", point_schema("Pixels from the top of your picture.")},
                        {"button", {{"type", "string"}, {"enum", {"left", "right", "middle"}}}},
                        {"count", {{"type", "integer"}, {"minimum", 1}, {"maximum", 3}}},
                        {"modifiers", {{"type", "string"}, {"description", "Keys held during the click, e.g. \"ctrl\"."}}}},
                       {"x", "y"}, true));
  tools.push_back(tool("move_pointer", std::string("Move the pointer to x, y (hover).") + kActObserve,
                       {{"x", point_schema("Pixels from the left.")}, {"y", point_schema("Pixels from the top.")}},
                       {"x", "y"}, true));
  tools.push_back(tool("drag",
                       std::string("Press the left button at the first point, move through the others, release at "
                                   "the last. path: [[x, y], ...], at least two points.") +
                           kActObserve,
                       {{"path",
                         {{"type", "array"},
                          {"minItems", 2},
                          {"items", {{"type", "array"}, {"items", {{"type", "integer"}}}, {"minItems", 2}, {"maxItems", 2}}}}}},
                       {"path"}, true));
  tools.push_back(tool("scroll",
                       std::string("Scroll the wheel at x, y (or where the pointer is): direction up, down, left or "
                                   "right, amount in notches (default 3).") +
                           kActObserve,
                       {{"x", point_schema("Pixels from the left.")},
                        {"y", point_schema("Pixels from the top.")},
                        {"direction", {{"type", "string"}, {"enum", {"up", "down", "left", "right"}}}},
                        {"amount", {{"type", "integer"}, {"minimum", 0}, {"maximum", 100}}}},
                       {"direction"}, true));
  tools.push_back(tool("type_text", std::string("Type text as if on a keyboard (\\n is Enter).") + kActObserve,
                       {{"text", {{"type", "string"}}}}, {"text"}, true));
  tools.push_back(tool("press_keys",
                       std::string("Press key combinations, xdotool style: \"ctrl+s\", \"Return\", \"ctrl+a Delete\" "
                                   "(space-separated combos in turn).") +
                           kActObserve,
                       {{"keys", {{"type", "string"}}}}, {"keys"}, true));
  tools.push_back(tool("computer",
                       std::string("Run one action of Anthropic's computer tool ({\"action\": \"left_click\", "
                                   "\"coordinate\": [x, y]}, also hold_key, left_mouse_down/up, zoom, wait) or of "
                                   "OpenAI's computer-use tool ({\"type\": \"click\", \"x\": .., \"y\": ..}).") +
                           kActObserve,
                       {{"action", {{"type", "object"}, {"description", "The action object, as its schema has it."}}}},
                       {"action"}, true));
  tools.push_back(tool("wait_for_settle",
                       "Wait until the screen (or region, in your picture's pixels) has not changed for idle_ms, "
                       "at most timeout_ms. With screenshot true, answer with the settled screenshot.",
                       {{"idle_ms", {{"type", "integer"}, {"minimum", 0}}},
                        {"timeout_ms", {{"type", "integer"}, {"minimum", 0}}},
                        {"since", {{"type", "integer"}, {"minimum", 0}, {"description", "A seq; changes after it count."}}},
                        {"region", region_schema()}},
                       {}, true));
  tools.push_back(tool("wait_for_change",
                       "Wait until the screen (or region) changes after seq since (from a screenshot or an action), "
                       "at most timeout_ms; answers at once if it already has. No polling needed.",
                       {{"since", {{"type", "integer"}, {"minimum", 0}}},
                        {"timeout_ms", {{"type", "integer"}, {"minimum", 0}}},
                        {"region", region_schema()}},
                       {}, true));
  tools.push_back(tool("cursor_position",
                       "Where the pointer is, in your picture's pixels, and its shape's name where the desktop says.",
                       {{"max_width", {{"type", "integer"}}}, {"max_height", {{"type", "integer"}}},
                        {"scale", {{"type", "number"}}}},
                       {}, false));
  const json tree_properties = {
      {"scope", {{"type", "string"}, {"enum", {"active", "desktop"}}, {"description", "The active window (default) or every application's."}}},
      {"root", {{"type", "string"}, {"description", "An element's id: its subtree only."}}},
      {"max_depth", {{"type", "integer"}, {"minimum", 0}, {"maximum", kA11yMaxDepth}}},
      {"max_nodes", {{"type", "integer"}, {"minimum", 1}, {"maximum", kA11yMaxNodes}}},
      {"timeout_ms", {{"type", "integer"}, {"minimum", 1}, {"maximum", kA11yMaxTimeout.count()}}},
      {"max_width", {{"type", "integer"}}},
      {"max_height", {{"type", "integer"}}},
      {"scale", {{"type", "number"}}}};
  tools.push_back(tool("a11y_tree",
                       "The accessibility tree of the active window (or the desktop, or an element's subtree): "
                       "each element's id, role, name, value, states and bounds in your picture's pixels (scaled as "
                       "your screenshots are). Needs voxl --a11y.",
                       tree_properties, {}, false));
  json find_properties = tree_properties;
  find_properties.update(
      {{"role", {{"type", "string"}, {"description", "Exactly, as a11y_tree names roles: \"push button\", \"text\"..."}}},
       {"name", {{"type", "string"}, {"description", "In the element's name (ASCII case ignored)."}}},
       {"text", {{"type", "string"}, {"description", "In its name, description or value."}}},
       {"exact", {{"type", "boolean"}}},
       {"states", {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", "Every one of these, e.g. [\"showing\", \"enabled\"]."}}},
       {"max_results", {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}}}});
  tools.push_back(tool("a11y_find", "Find elements by role, name, text and states; answers their ids and bounds.",
                       std::move(find_properties), {}, false));
  tools.push_back(tool("a11y_act",
                       "Act on an element by its id: click (its own action, else a click at its centre), focus, "
                       "set_text (the field's whole text), select, scroll_into_view. Answered once the screen "
                       "settled, with the element's new state and the settled screenshot.",
                       {{"id", {{"type", "string"}}},
                        {"action", {{"type", "string"}, {"enum", {"click", "focus", "set_text", "select", "scroll_into_view"}}}},
                        {"text", {{"type", "string"}}}},
                       {"id", "action"}, true));
  tools.push_back(tool("record_start",
                       "Start recording the screen as video (H.264 MP4, the stream viewers get). Returns its id.",
                       json::object(), {}, false));
  tools.push_back(tool("record_stop", "Stop recording id and return the MP4.",
                       {{"id", {{"type", "integer"}, {"minimum", 1}}}}, {"id"}, false));
  return {{"tools", std::move(tools)}};
}

namespace {

// The accessibility tools: their arguments read by the HTTP bodies' own
// parsers (a11y_request.h), timeout_ms as "timeout"; a11y_act's settle and
// picture options as every action tool's.
bool plan_a11y_tool(const std::string& name, const json& a, std::chrono::milliseconds max_wait, ToolPlan& plan,
                    net::ParamError& error) {
  // The HTTP bodies' parsers read them, timeout_ms as "timeout".
  json body = json::object();
  json options = json::object();
  for (const auto& [key, value] : a.items()) {
    const bool shared = key == "screenshot" || key == "cursor" || key == "settle_ms" || key == "react_ms" ||
                        key == "settle_timeout_ms" ||
                        (name == "a11y_act" && (key == "max_width" || key == "max_height" || key == "scale"));
    if (name == "a11y_act" && shared) options[key] = value;
    else body[key == "timeout_ms" ? "timeout" : key] = value;
  }
  ActionError e;
  const auto named = [&](const ActionError& err) {
    error = {"arguments." + (err.parameter == "timeout" ? std::string("timeout_ms") : err.parameter), err.message};
  };
  if (name == "a11y_tree") {
    plan.kind = ToolPlan::Kind::kA11yTree;
    plan.a11y_tree = parse_a11y_tree(body.dump(), e);
    if (!plan.a11y_tree) return named(e), false;
  } else if (name == "a11y_find") {
    plan.kind = ToolPlan::Kind::kA11yFind;
    plan.a11y_find = parse_a11y_find(body.dump(), e);
    if (!plan.a11y_find) return named(e), false;
  } else {
    plan.kind = ToolPlan::Kind::kA11yAct;
    Args shared{options, error};
    if (!shared.options(max_wait, plan.options)) return false;
    plan.a11y_act = parse_a11y_act(body.dump(), e);
    if (!plan.a11y_act) return named(e), false;
  }
  return true;
}

}  // namespace

std::optional<ToolPlan> plan_tool(const std::string& name, const json& arguments, std::chrono::milliseconds max_wait,
                                  net::ParamError& error) {
  const json empty = json::object();
  const json& a = arguments.is_null() ? empty : arguments;
  Args args{a, error};
  if (!a.is_object()) return args.fail("", "must be an object"), std::nullopt;
  ToolPlan plan;
  json action;
  if (name == "screenshot") {
    if (!args.only({}, true) || !args.options(max_wait, plan.options)) return std::nullopt;
    action = {{"action", "screenshot"}};
  } else if (name == "click") {
    std::string button = "left", modifiers;
    std::optional<int64_t> count;
    json at;
    if (!args.only({"x", "y", "button", "count", "modifiers"}, true) || !args.options(max_wait, plan.options) ||
        !args.position("x", "y", true, at) || !args.string("button", false, button) ||
        !args.integer("count", 1, 3, count) || !args.string("modifiers", false, modifiers))
      return std::nullopt;
    const int n = int(count.value_or(1));
    const char* kLeft[] = {"left_click", "double_click", "triple_click"};
    if (button == "left")
      action = {{"action", kLeft[n - 1]}};
    else if (button == "right" || button == "middle") {
      if (n != 1) return args.fail("count", "only the left button double- and triple-clicks"), std::nullopt;
      action = {{"action", button + "_click"}};
    } else {
      return args.fail("button", "must be left, right or middle"), std::nullopt;
    }
    action["coordinate"] = at;
    if (!modifiers.empty()) action["text"] = modifiers;
  } else if (name == "move_pointer") {
    json at;
    if (!args.only({"x", "y"}, true) || !args.options(max_wait, plan.options) || !args.position("x", "y", true, at))
      return std::nullopt;
    action = {{"action", "mouse_move"}, {"coordinate", at}};
  } else if (name == "drag") {
    if (!args.only({"path"}, true) || !args.options(max_wait, plan.options)) return std::nullopt;
    if (!a.contains("path") || !a["path"].is_array()) return args.fail("path", "is required: [[x, y], ...]"), std::nullopt;
    json path = json::array();
    for (const json& p : a["path"]) {
      if (!p.is_array() || p.size() != 2) return args.fail("path", "each point must be [x, y]"), std::nullopt;
      path.push_back({{"x", p[0]}, {"y", p[1]}});
    }
    action = {{"type", "drag"}, {"path", std::move(path)}};
  } else if (name == "scroll") {
    std::string direction;
    std::optional<int64_t> amount;
    json at;
    if (!args.only({"x", "y", "direction", "amount"}, true) || !args.options(max_wait, plan.options) ||
        !args.position("x", "y", false, at) || !args.string("direction", true, direction) ||
        !args.integer("amount", 0, 100, amount))
      return std::nullopt;
    action = {{"action", "scroll"}, {"scroll_direction", direction}, {"scroll_amount", amount.value_or(3)}};
    if (!at.is_null()) action["coordinate"] = at;
  } else if (name == "type_text") {
    std::string text;
    if (!args.only({"text"}, true) || !args.options(max_wait, plan.options) || !args.string("text", true, text))
      return std::nullopt;
    action = {{"action", "type"}, {"text", text}};
  } else if (name == "press_keys") {
    std::string keys;
    if (!args.only({"keys"}, true) || !args.options(max_wait, plan.options) || !args.string("keys", true, keys))
      return std::nullopt;
    action = {{"action", "key"}, {"text", keys}};
  } else if (name == "computer") {
    if (!args.only({"action"}, true) || !args.options(max_wait, plan.options)) return std::nullopt;
    if (!a.contains("action") || !a["action"].is_object())
      return args.fail("action", "is required: one action object"), std::nullopt;
    action = a["action"];
  } else if (name == "wait_for_settle" || name == "wait_for_change") {
    plan.kind = ToolPlan::Kind::kWait;
    plan.change = name == "wait_for_change";
    std::optional<int64_t> idle, timeout, since;
    if (!args.only({"idle_ms", "timeout_ms", "since", "region"}, true) || !args.options(max_wait, plan.options) ||
        !args.integer("idle_ms", 0, max_wait.count(), idle) || !args.integer("timeout_ms", 0, max_wait.count(), timeout) ||
        !args.integer("since", 0, INT64_MAX, since) || !args.rect("region", plan.region))
      return std::nullopt;
    if (plan.change && idle) return args.fail("idle_ms", "is for wait_for_settle"), std::nullopt;
    // Waits answer with a picture only when asked.
    plan.options.screenshot = a.contains("screenshot") && a["screenshot"].is_boolean() && a["screenshot"].get<bool>();
    if (idle) plan.idle = std::chrono::milliseconds(*idle);
    if (timeout) plan.timeout = std::chrono::milliseconds(*timeout);
    plan.timeout = std::min(plan.timeout, max_wait);
    if (since) plan.since = uint64_t(*since);
    return plan;
  } else if (name == "cursor_position") {
    plan.kind = ToolPlan::Kind::kCursor;
    std::optional<int64_t> w, h;
    std::optional<double> scale;
    if (!args.only({"max_width", "max_height", "scale"}, false) || !args.integer("max_width", 0, 1 << 20, w) ||
        !args.integer("max_height", 0, 1 << 20, h) || !args.number("scale", scale))
      return std::nullopt;
    net::ParamError e;
    if (!make_scale(scale, w, h, plan.options.scale, e)) return args.fail(e.parameter, e.message), std::nullopt;
    return plan;
  } else if (name == "a11y_tree" || name == "a11y_find" || name == "a11y_act") {
    if (!plan_a11y_tool(name, a, max_wait, plan, error)) return std::nullopt;
    return plan;
  } else if (name == "record_start") {
    plan.kind = ToolPlan::Kind::kRecordStart;
    if (!args.only({}, false)) return std::nullopt;
    return plan;
  } else if (name == "record_stop") {
    plan.kind = ToolPlan::Kind::kRecordStop;
    std::optional<int64_t> id;
    if (!args.only({"id"}, false) || !args.integer("id", 1, INT64_MAX, id)) return std::nullopt;
    if (!id) return args.fail("id", "is required"), std::nullopt;
    plan.record_id = uint64_t(*id);
    return plan;
  } else {
    error = {"name", "no tool '" + name.substr(0, 64) + "' (tools/list names them)"};
    return std::nullopt;
  }
  plan.body = action.dump();
  return plan;
}

}  // namespace voxl::endpoints::mcp
