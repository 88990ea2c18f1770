// The reader behind parse_computer_action (endpoints/computer_action.h):
// the checks of single fields that both schemas share (positions on the
// agent's picture, key names, typeable text, durations, the fields an
// action allows), each failing with the field's name, and the two
// schemas' actions, defined in computer_action_anthropic.cpp and
// computer_action_openai.cpp. Private to those files.
//
// Pure; any thread (one parser per body).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/geometry.h"
#include "base/json_number.h"
#include "base/utf8.h"
#include "endpoints/computer_action.h"
#include "endpoints/input_actions.h"
#include "input/key_mapping.h"

namespace voxl::endpoints {

struct ComputerActionParser {
  using json = nlohmann::json;
  using Type = InputAction::Type;

  Size picture;
  double px_per_notch;
  ActionError& err;

  bool fail(const std::string& field, const std::string& message) { return err.set(field, message); }

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
    int64_t n = 0;
    if (const auto fault = json_integer(v, min, max, n); fault != JsonNumberFault::kNone)
      return fail(field, json_integer_rule(fault, min, max));
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
    const auto cps = decode_utf8(text);
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

  // Anthropic's schema: {"action": "left_click", "coordinate": [x, y]}.
  bool anthropic(const json& a, ComputerAction& out);
  // OpenAI's schema: {"type": "click", "button": "left", "x": 1, "y": 2}.
  bool openai(const json& a, ComputerAction& out);

  // anthropic()'s actions, one kind each; `out.name` is the action.
  // An optional "coordinate": [x, y] places the pointer first.
  bool anthropic_position(const json& a, InputAction& p);
  // An optional "text": the keys held during a pointer action.
  bool anthropic_modifiers(const json& a, InputAction& p);
  bool anthropic_key(const json& a, ComputerAction& out);
  bool anthropic_move(const json& a, ComputerAction& out);
  bool anthropic_click(const json& a, int button, int count, ComputerAction& out);
  bool anthropic_drag(const json& a, ComputerAction& out);
  bool anthropic_button(const json& a, ComputerAction& out);
  bool anthropic_scroll(const json& a, ComputerAction& out);
  bool anthropic_hold_key(const json& a, ComputerAction& out);
  bool anthropic_zoom(const json& a, ComputerAction& out);
};

}  // namespace voxl::endpoints
