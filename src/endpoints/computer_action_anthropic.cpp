#include "endpoints/computer_action_parser.h"

#include "input/input_injector.h"

namespace voxl::endpoints {

namespace {

struct Click {
  const char* name;
  int button;
  int count;
};
constexpr Click kClicks[] = {{"left_click", input::kButtonLeft, 1},
                             {"right_click", input::kButtonRight, 1},
                             {"middle_click", input::kButtonMiddle, 1},
                             {"double_click", input::kButtonLeft, 2},
                             {"triple_click", input::kButtonLeft, 3}};

}  // namespace

bool ComputerActionParser::anthropic(const json& a, ComputerAction& out) {
  out.schema = ComputerSchema::kAnthropic;
  const std::string& name = out.name;
  const char* f = "action";
  out.settle = true;
  if (name == "key") return anthropic_key(a, out);
  if (name == "type") return type_text(a, f, name, out);
  if (name == "mouse_move") return anthropic_move(a, out);
  for (const Click& c : kClicks) {
    if (name != c.name) continue;
    return anthropic_click(a, c.button, c.count, out);
  }
  if (name == "left_click_drag") return anthropic_drag(a, out);
  if (name == "left_mouse_down" || name == "left_mouse_up") return anthropic_button(a, out);
  if (name == "scroll") return anthropic_scroll(a, out);
  if (name == "hold_key") return anthropic_hold_key(a, out);
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
  if (name == "zoom") return anthropic_zoom(a, out);
  return fail("action",
              "unknown action '" + name.substr(0, 40) +
                  "' (key, type, mouse_move, left_click, right_click, middle_click, double_click, triple_click, "
                  "left_click_drag, left_mouse_down, left_mouse_up, scroll, hold_key, wait, screenshot, "
                  "cursor_position, zoom)");
}

bool ComputerActionParser::anthropic_position(const json& a, InputAction& p) {
  if (!a.contains("coordinate")) return true;
  p.positioned = true;
  return pair(a["coordinate"], "coordinate", p.x, p.y);
}

bool ComputerActionParser::anthropic_modifiers(const json& a, InputAction& p) {
  if (!a.contains("text")) return true;
  if (!a["text"].is_string()) return fail("text", "must be the keys held during the action, e.g. \"shift\"");
  return combo(a["text"].get<std::string>(), "text", p.modifiers);
}

bool ComputerActionParser::anthropic_key(const json& a, ComputerAction& out) {
  const std::string& name = out.name;
  const char* f = "action";
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

bool ComputerActionParser::anthropic_move(const json& a, ComputerAction& out) {
  const std::string& name = out.name;
  const char* f = "action";
  InputAction m = pointer(Type::kMove);
  if (!only(a, f, {"coordinate", "text"}, name)) return false;
  if (!a.contains("coordinate")) return fail("coordinate", "is required: [x, y]");
  if (!anthropic_position(a, m) || !anthropic_modifiers(a, m)) return false;
  out.input.push_back(std::move(m));
  return true;
}

bool ComputerActionParser::anthropic_click(const json& a, int button, int count, ComputerAction& out) {
  const std::string& name = out.name;
  const char* f = "action";
  InputAction k = pointer(Type::kClick);
  k.button = button;
  k.count = count;
  if (!only(a, f, {"coordinate", "text"}, name) || !anthropic_position(a, k) || !anthropic_modifiers(a, k))
    return false;
  out.input.push_back(std::move(k));
  return true;
}

bool ComputerActionParser::anthropic_drag(const json& a, ComputerAction& out) {
  const std::string& name = out.name;
  const char* f = "action";
  InputAction d = pointer(Type::kDrag);
  d.positioned = true;
  if (!only(a, f, {"start_coordinate", "coordinate", "text"}, name)) return false;
  if (!a.contains("start_coordinate")) return fail("start_coordinate", "is required: [x, y]");
  if (!a.contains("coordinate")) return fail("coordinate", "is required: [x, y]");
  if (!pair(a["start_coordinate"], "start_coordinate", d.x, d.y) || !pair(a["coordinate"], "coordinate", d.to_x, d.to_y) ||
      !anthropic_modifiers(a, d))
    return false;
  out.input.push_back(std::move(d));
  return true;
}

bool ComputerActionParser::anthropic_button(const json& a, ComputerAction& out) {
  const std::string& name = out.name;
  const char* f = "action";
  InputAction b = pointer(Type::kButton);
  b.down = name == "left_mouse_down";
  if (!only(a, f, {"coordinate"}, name) || !anthropic_position(a, b)) return false;
  out.input.push_back(std::move(b));
  return true;
}

bool ComputerActionParser::anthropic_scroll(const json& a, ComputerAction& out) {
  const std::string& name = out.name;
  const char* f = "action";
  InputAction s = pointer(Type::kScroll);
  if (!only(a, f, {"coordinate", "scroll_direction", "scroll_amount", "text"}, name) || !anthropic_position(a, s) ||
      !anthropic_modifiers(a, s))
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

bool ComputerActionParser::anthropic_hold_key(const json& a, ComputerAction& out) {
  const std::string& name = out.name;
  const char* f = "action";
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

bool ComputerActionParser::anthropic_zoom(const json& a, ComputerAction& out) {
  const std::string& name = out.name;
  const char* f = "action";
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

}  // namespace voxl::endpoints
