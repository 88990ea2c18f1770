#include "endpoints/computer_action.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "input/input_injector.h"
#include "input/key_mapping.h"

namespace voxl::endpoints {

namespace {

using json = nlohmann::json;
using Type = InputAction::Type;

// Deeper JSON is refused before it is parsed (an action is 3 levels deep).
constexpr size_t kMaxDepth = 16;

// A drag path longer than this is refused (each point is played with steps).
constexpr size_t kMaxPathPoints = 256;

struct Parser {
  Size picture;
  double px_per_notch;
  ActionError& err;

  bool fail(const std::string& field, const std::string& message) {
    err.parameter = field;
    err.message = field + ": " + message;
    return false;
  }

  // Only these fields (besides the schema's action field) may be present.
  bool only(const json& a, const char* action_field, std::initializer_list<const char*> known,
            const std::string& action) {
    for (const auto& item : a.items()) {
      const std::string& key = item.key();
      if (key == action_field || std::any_of(known.begin(), known.end(), [&](const char* k) { return key == k; }))
        continue;
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      return fail(key, "is not a field of " + action + (list.empty() ? " (it takes none)" : " (" + list + ")"));
    }
    return true;
  }

  // A position on the agent's picture: a whole number, or a number that
  // rounds to one (models write 512.0).
  bool coordinate(const json& v, const std::string& field, bool horizontal, int& out) {
    if (!v.is_number()) return fail(field, "must be a number of pixels");
    const double d = v.get<double>();
    const int limit = horizontal ? picture.width : picture.height;
    if (!std::isfinite(d) || std::round(d) < 0 || std::round(d) >= limit)
      return fail(field, "outside the " + std::to_string(picture.width) + "x" + std::to_string(picture.height) +
                             " picture");
    out = int(std::lround(d));
    return true;
  }

  // [x, y]
  bool pair(const json& v, const std::string& field, int& x, int& y) {
    if (!v.is_array() || v.size() != 2) return fail(field, "must be [x, y]");
    return coordinate(v[0], field + "[0]", true, x) && coordinate(v[1], field + "[1]", false, y);
  }

  // {"x": .., "y": ..}
  bool xy(const json& v, const std::string& base, int& x, int& y) {
    const auto name = [&](const char* f) { return base.empty() ? std::string(f) : base + "." + f; };
    if (!v.is_object()) return fail(base, "must be an object with x and y");
    if (!v.contains("x")) return fail(name("x"), "is required");
    if (!v.contains("y")) return fail(name("y"), "is required");
    for (const auto& item : v.items())
      if (item.key() != "x" && item.key() != "y") return fail(name(item.key().c_str()), "is not a field of a point (x, y)");
    return coordinate(v["x"], name("x"), true, x) && coordinate(v["y"], name("y"), false, y);
  }

  bool integer(const json& v, const std::string& field, int64_t min, int64_t max, int& out) {
    if (!v.is_number_integer()) return fail(field, "must be a whole number");
    const int64_t n = v.is_number_unsigned() ? int64_t(std::min<uint64_t>(v.get<uint64_t>(), uint64_t(INT64_MAX)))
                                             : v.get<int64_t>();
    if (n < min || n > max) return fail(field, "must be between " + std::to_string(min) + " and " + std::to_string(max));
    out = int(n);
    return true;
  }

  // Seconds, as Anthropic's duration: 0 < d <= kMaxActionSeconds (or 0
  // allowed when `zero_ok`).
  bool seconds(const json& v, const std::string& field, bool zero_ok, std::chrono::milliseconds& out) {
    if (!v.is_number()) return fail(field, "must be a number of seconds");
    const double d = v.get<double>();
    const double max = double(kMaxActionSeconds.count());
    if (!std::isfinite(d) || d < 0 || (!zero_ok && d <= 0) || d > max)
      return fail(field, std::string("must be ") + (zero_ok ? "between 0" : "above 0") + " and at most " +
                             std::to_string(kMaxActionSeconds.count()) + " seconds");
    out = std::chrono::milliseconds(int64_t(std::llround(d * 1000)));
    return true;
  }

  bool string(const json& a, const char* field, std::string& out) {
    if (!a.contains(field)) return fail(field, "is required");
    if (!a[field].is_string()) return fail(field, "must be a string");
    out = a[field].get<std::string>();
    return true;
  }

  // Text a type action types: valid UTF-8, every character typeable.
  bool typeable(const std::string& text, const std::string& field) {
    const auto cps = input::decode_utf8(text);
    if (!cps) return fail(field, "is not valid UTF-8");
    if (cps->empty()) return fail(field, "is empty: nothing to type");
    if (cps->size() > kMaxTypedChars)
      return fail(field, "too much text: at most " + std::to_string(kMaxTypedChars) + " characters per action");
    for (size_t i = 0; i < cps->size(); ++i)
      if (!input::keysym_for_char((*cps)[i])) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%04X", unsigned((*cps)[i]));
        return fail(field, "character " + std::to_string(i) + " (U+" + hex + ") cannot be typed");
      }
    return true;
  }

  // One combo ("shift", "ctrl+shift") held around a pointer action.
  bool combo(const std::string& text, const std::string& field, std::vector<uint32_t>& out) {
    if (text.empty()) return true;
    std::string bad;
    auto keys = input::parse_key_combo(text, &bad);
    if (!keys) return fail(field, "unknown key '" + bad.substr(0, 64) + "'");
    if (keys->size() > input::kMaxComboKeys)
      return fail(field, "at most " + std::to_string(input::kMaxComboKeys) + " keys at once");
    out = std::move(*keys);
    return true;
  }

  // OpenAI's keys: a list of names pressed together.
  bool key_list(const json& v, const std::string& field, bool required, std::vector<uint32_t>& out) {
    if (!v.is_array()) return fail(field, "must be a list of key names");
    if (v.empty()) return required ? fail(field, "must name at least one key") : true;
    if (v.size() > input::kMaxComboKeys)
      return fail(field, "at most " + std::to_string(input::kMaxComboKeys) + " keys at once");
    std::vector<std::string> names;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string()) return fail(field + "[" + std::to_string(i) + "]", "must be a key name");
      names.push_back(v[i].get<std::string>());
    }
    std::string bad;
    auto keys = input::parse_key_list(names, &bad);
    if (!keys) {
      const auto it = std::find(names.begin(), names.end(), bad);
      const std::string where = it == names.end() ? field : field + "[" + std::to_string(it - names.begin()) + "]";
      return fail(where, "unknown key '" + bad + "'");
    }
    out = std::move(*keys);
    return true;
  }

  // Both schemas' "type": {"text": ...}.
  bool type_text(const json& a, const char* action_field, const std::string& name, ComputerAction& out) {
    InputAction t;
    t.type = Type::kType;
    if (!only(a, action_field, {"text"}, name) || !string(a, "text", t.text) || !typeable(t.text, "text")) return false;
    out.input.push_back(std::move(t));
    return true;
  }

  static InputAction pointer(Type type) {
    InputAction a;
    a.type = type;
    return a;
  }

  bool anthropic(const json& a, ComputerAction& out);
  bool openai(const json& a, ComputerAction& out);
};

bool Parser::anthropic(const json& a, ComputerAction& out) {
  out.schema = ComputerSchema::kAnthropic;
  const std::string& name = out.name;
  const char* f = "action";
  const auto optional_position = [&](InputAction& p) {
    if (!a.contains("coordinate")) return true;
    p.positioned = true;
    return pair(a["coordinate"], "coordinate", p.x, p.y);
  };
  const auto modifiers = [&](InputAction& p) {
    if (!a.contains("text")) return true;
    if (!a["text"].is_string()) return fail("text", "must be the keys held during the action, e.g. \"shift\"");
    return combo(a["text"].get<std::string>(), "text", p.modifiers);
  };
  out.settle = true;
  if (name == "key") {
    std::string text;
    if (!only(a, f, {"text"}, name) || !string(a, "text", text)) return false;
    std::string bad;
    auto seq = input::parse_key_sequence(text, &bad);
    if (!seq) return fail("text", bad.empty() ? "names no key" : "unknown key '" + bad.substr(0, 64) + "'");
    if (seq->size() > input::kMaxKeySequence)
      return fail("text", "at most " + std::to_string(input::kMaxKeySequence) + " key combinations per action");
    for (const auto& keys : *seq)
      if (keys.size() > input::kMaxComboKeys)
        return fail("text", "at most " + std::to_string(input::kMaxComboKeys) + " keys at once");
    for (auto& keys : *seq) {
      InputAction k;
      k.type = Type::kKey;
      k.keys = std::move(keys);
      out.input.push_back(std::move(k));
    }
    return true;
  }
  if (name == "type") return type_text(a, f, name, out);
  if (name == "mouse_move") {
    InputAction m = pointer(Type::kMove);
    if (!only(a, f, {"coordinate", "text"}, name)) return false;
    if (!a.contains("coordinate")) return fail("coordinate", "is required: [x, y]");
    if (!optional_position(m) || !modifiers(m)) return false;
    out.input.push_back(std::move(m));
    return true;
  }
  struct Click {
    const char* name;
    int button;
    int count;
  };
  static constexpr Click kClicks[] = {{"left_click", input::kButtonLeft, 1},
                                      {"right_click", input::kButtonRight, 1},
                                      {"middle_click", input::kButtonMiddle, 1},
                                      {"double_click", input::kButtonLeft, 2},
                                      {"triple_click", input::kButtonLeft, 3}};
  for (const Click& c : kClicks) {
    if (name != c.name) continue;
    InputAction k = pointer(Type::kClick);
    k.button = c.button;
    k.count = c.count;
    if (!only(a, f, {"coordinate", "text"}, name) || !optional_position(k) || !modifiers(k)) return false;
    out.input.push_back(std::move(k));
    return true;
  }
  if (name == "left_click_drag") {
    InputAction d = pointer(Type::kDrag);
    d.positioned = true;
    if (!only(a, f, {"start_coordinate", "coordinate", "text"}, name)) return false;
    if (!a.contains("start_coordinate")) return fail("start_coordinate", "is required: [x, y]");
    if (!a.contains("coordinate")) return fail("coordinate", "is required: [x, y]");
    if (!pair(a["start_coordinate"], "start_coordinate", d.x, d.y) || !pair(a["coordinate"], "coordinate", d.to_x, d.to_y) ||
        !modifiers(d))
      return false;
    out.input.push_back(std::move(d));
    return true;
  }
  if (name == "left_mouse_down" || name == "left_mouse_up") {
    InputAction b = pointer(Type::kButton);
    b.down = name == "left_mouse_down";
    if (!only(a, f, {"coordinate"}, name) || !optional_position(b)) return false;
    out.input.push_back(std::move(b));
    return true;
  }
  if (name == "scroll") {
    InputAction s = pointer(Type::kScroll);
    if (!only(a, f, {"coordinate", "scroll_direction", "scroll_amount", "text"}, name) || !optional_position(s) ||
        !modifiers(s))
      return false;
    std::string dir;
    if (!string(a, "scroll_direction", dir)) return false;
    int amount = 3;
    if (a.contains("scroll_amount") && !integer(a["scroll_amount"], "scroll_amount", 0, kMaxScrollNotches, amount))
      return false;
    if (dir == "up") s.notches_y = -amount;
    else if (dir == "down") s.notches_y = amount;
    else if (dir == "left") s.notches_x = -amount;
    else if (dir == "right") s.notches_x = amount;
    else return fail("scroll_direction", "must be up, down, left or right");
    out.input.push_back(std::move(s));
    return true;
  }
  if (name == "hold_key") {
    std::string text;
    if (!only(a, f, {"text", "duration"}, name) || !string(a, "text", text)) return false;
    std::vector<uint32_t> keys;
    if (text.empty()) return fail("text", "is required: the keys to hold, e.g. \"shift\"");
    if (!combo(text, "text", keys)) return false;
    if (!a.contains("duration")) return fail("duration", "is required: seconds to hold the keys");
    if (!seconds(a["duration"], "duration", false, out.hold)) return false;
    out.hold_keys = std::move(keys);
    return true;
  }
  if (name == "wait") {
    if (!only(a, f, {"duration"}, name)) return false;
    return !a.contains("duration") || seconds(a["duration"], "duration", true, out.wait_cap);
  }
  out.settle = false;
  if (name == "screenshot") {
    out.screenshot = true;
    return only(a, f, {}, name);
  }
  if (name == "cursor_position") {
    out.cursor = true;
    return only(a, f, {}, name);
  }
  if (name == "zoom") {
    if (!only(a, f, {"region"}, name)) return false;
    if (!a.contains("region")) return fail("region", "is required: [x0, y0, x1, y1]");
    const json& r = a["region"];
    if (!r.is_array() || r.size() != 4) return fail("region", "must be [x0, y0, x1, y1]");
    int v[4];
    for (int i = 0; i < 4; ++i) {
      // The far corner may be the picture's edge itself.
      const std::string field = "region[" + std::to_string(i) + "]";
      if (!r[size_t(i)].is_number()) return fail(field, "must be a number of pixels");
      const double d = std::round(r[size_t(i)].get<double>());
      const int limit = i % 2 == 0 ? picture.width : picture.height;
      if (!std::isfinite(d) || d < 0 || d > limit)
        return fail(field, "outside the " + std::to_string(picture.width) + "x" + std::to_string(picture.height) +
                               " picture");
      v[i] = int(d);
    }
    if (v[2] <= v[0] || v[3] <= v[1]) return fail("region", "must have x1 > x0 and y1 > y0");
    out.zoom = Rect{v[0], v[1], v[2] - v[0], v[3] - v[1]};
    out.screenshot = true;
    return true;
  }
  return fail("action",
              "unknown action '" + name.substr(0, 40) +
                  "' (key, type, mouse_move, left_click, right_click, middle_click, double_click, triple_click, "
                  "left_click_drag, left_mouse_down, left_mouse_up, scroll, hold_key, wait, screenshot, "
                  "cursor_position, zoom)");
}

bool Parser::openai(const json& a, ComputerAction& out) {
  out.schema = ComputerSchema::kOpenAI;
  const std::string& name = out.name;
  const char* f = "type";
  const auto position = [&](InputAction& p) {
    p.positioned = true;
    if (!a.contains("x")) return fail("x", "is required");
    if (!a.contains("y")) return fail("y", "is required");
    return coordinate(a["x"], "x", true, p.x) && coordinate(a["y"], "y", false, p.y);
  };
  const auto modifiers = [&](InputAction& p) {
    return !a.contains("keys") || key_list(a["keys"], "keys", false, p.modifiers);
  };
  out.settle = true;
  if (name == "click" || name == "double_click") {
    InputAction k = pointer(Type::kClick);
    if (name == "double_click") k.count = 2;
    if (!only(a, f, name == "click" ? std::initializer_list<const char*>{"x", "y", "button", "keys"}
                                    : std::initializer_list<const char*>{"x", "y", "keys"},
              name) ||
        !position(k) || !modifiers(k))
      return false;
    if (a.contains("button")) {
      const json& b = a["button"];
      static const std::pair<const char*, int> kButtons[] = {{"left", input::kButtonLeft},
                                                             {"right", input::kButtonRight},
                                                             {"wheel", input::kButtonMiddle},
                                                             {"middle", input::kButtonMiddle},
                                                             {"back", input::kButtonBack},
                                                             {"forward", input::kButtonForward}};
      bool known = false;
      for (const auto& [n, v] : kButtons)
        if (b.is_string() && b.get<std::string>() == n) known = true, k.button = v;
      if (!known) return fail("button", "must be left, right, wheel, back or forward");
    }
    out.input.push_back(std::move(k));
    return true;
  }
  if (name == "move") {
    InputAction m = pointer(Type::kMove);
    if (!only(a, f, {"x", "y", "keys"}, name) || !position(m) || !modifiers(m)) return false;
    out.input.push_back(std::move(m));
    return true;
  }
  if (name == "drag") {
    InputAction d = pointer(Type::kDrag);
    d.positioned = true;
    if (!only(a, f, {"path", "keys"}, name) || !modifiers(d)) return false;
    if (!a.contains("path")) return fail("path", "is required: [{\"x\": .., \"y\": ..}, ...]");
    const json& p = a["path"];
    if (!p.is_array() || p.size() < 2) return fail("path", "must be a list of at least two points");
    if (p.size() > kMaxPathPoints) return fail("path", "at most " + std::to_string(kMaxPathPoints) + " points");
    for (size_t i = 0; i < p.size(); ++i) {
      Point q;
      if (!xy(p[i], "path[" + std::to_string(i) + "]", q.x, q.y)) return false;
      d.path.push_back(q);
    }
    d.x = d.path.front().x;
    d.y = d.path.front().y;
    d.to_x = d.path.back().x;
    d.to_y = d.path.back().y;
    out.input.push_back(std::move(d));
    return true;
  }
  if (name == "scroll") {
    InputAction s = pointer(Type::kScroll);
    if (!only(a, f, {"x", "y", "scroll_x", "scroll_y", "keys"}, name) || !position(s) || !modifiers(s)) return false;
    const double max = kMaxScrollNotches * px_per_notch;
    for (const char* field : {"scroll_x", "scroll_y"}) {
      if (!a.contains(field)) continue;
      const json& v = a[field];
      if (!v.is_number()) return fail(field, "must be a number of pixels");
      const double px = v.get<double>();
      if (!std::isfinite(px) || std::fabs(px) > max)
        return fail(field, "must be within +-" + std::to_string(int64_t(max)) + " pixels");
      // Any amount scrolls at least one notch: a model's 30 pixels mean
      // "a little", not nothing.
      int notches = int(std::lround(std::fabs(px) / px_per_notch));
      if (px != 0) notches = std::max(notches, 1);
      (field[7] == 'x' ? s.notches_x : s.notches_y) = px < 0 ? -notches : notches;
    }
    out.input.push_back(std::move(s));
    return true;
  }
  if (name == "keypress") {
    InputAction k;
    k.type = Type::kKey;
    if (!only(a, f, {"keys"}, name)) return false;
    if (!a.contains("keys")) return fail("keys", "is required: a list of key names, e.g. [\"CTRL\", \"C\"]");
    if (!key_list(a["keys"], "keys", true, k.keys)) return false;
    out.input.push_back(std::move(k));
    return true;
  }
  if (name == "type") return type_text(a, f, name, out);
  if (name == "wait") return only(a, f, {}, name);
  out.settle = false;
  if (name == "screenshot") {
    out.screenshot = true;
    return only(a, f, {}, name);
  }
  return fail("type", "unknown action '" + name.substr(0, 40) +
                          "' (click, double_click, drag, keypress, move, scroll, type, wait, screenshot)");
}

}  // namespace

std::optional<ComputerAction> parse_computer_action(std::string_view body, Size picture, double px_per_notch,
                                                    ActionError& error) {
  Parser p{picture, px_per_notch > 0 ? px_per_notch : 1.0, error};
  if (!json_depth_within(body, kMaxDepth)) return p.fail("body", "is nested too deeply"), std::nullopt;
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded()) return p.fail("body", "is not valid JSON"), std::nullopt;
  if (!doc.is_object())
    return p.fail("body", "must be one action object: Anthropic's {\"action\": ...} or OpenAI's {\"type\": ...}"),
           std::nullopt;
  // An OpenAI computer_call item as the Responses API hands it out: its
  // action is what to do; its ids and safety checks are the caller's.
  if (doc.contains("type") && doc["type"] == "computer_call") {
    if (!doc.contains("action") || !doc["action"].is_object())
      return p.fail("action", "a computer_call needs its action object"), std::nullopt;
    json inner = std::move(doc["action"]);
    doc = std::move(inner);
  }
  if (picture.empty()) return p.fail("body", "the picture's size is not known yet"), std::nullopt;
  ComputerAction out;
  const bool has_action = doc.contains("action"), has_type = doc.contains("type");
  if (has_action && has_type)
    return p.fail("type", "cannot be given with action: Anthropic's schema names the action in \"action\", OpenAI's in "
                          "\"type\""),
           std::nullopt;
  if (has_action) {
    if (!doc["action"].is_string()) return p.fail("action", "must be the action's name"), std::nullopt;
    out.name = doc["action"].get<std::string>();
    if (!p.anthropic(doc, out)) return std::nullopt;
    return out;
  }
  if (has_type) {
    if (!doc["type"].is_string()) return p.fail("type", "must be the action's name"), std::nullopt;
    out.name = doc["type"].get<std::string>();
    if (!p.openai(doc, out)) return std::nullopt;
    return out;
  }
  return p.fail("action", "is required: Anthropic's {\"action\": \"left_click\", ...} or OpenAI's {\"type\": \"click\", "
                          "...}"),
         std::nullopt;
}

}  // namespace voxl::endpoints
