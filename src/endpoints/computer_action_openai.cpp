#include "endpoints/computer_action_parser.h"

#include "input/input_injector.h"

namespace voxl::endpoints {

namespace {

// A drag path longer than this is refused (each point is played with steps).
constexpr size_t kMaxPathPoints = 256;

}  // namespace

bool ComputerActionParser::openai(const json& a, ComputerAction& out) {
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

}  // namespace voxl::endpoints
