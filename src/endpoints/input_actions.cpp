#include "endpoints/input_actions.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "base/json_number.h"
#include "base/utf8.h"
#include "input/key_mapping.h"
#include "input/scroll_accumulator.h"

namespace voxl::endpoints {

namespace {

using json = nlohmann::json;
using Type = InputAction::Type;

// Each check sets `err` and returns false; callers stop at the first.
struct Checker {
  Size desktop;
  ActionError& err;

  bool fail(const std::string& field, const std::string& message) { return err.set(field, message); }

  static std::string join(const std::string& base, const std::string& field) {
    return base.empty() ? field : base + "." + field;
  }

  bool integer(const json& v, const std::string& field, int64_t min, int64_t max, int& out) {
    int64_t n = 0;
    if (const auto fault = json_integer(v, min, max, n); fault != JsonNumberFault::kNone)
      return fail(field, json_integer_rule(fault, min, max));
    out = int(n);
    return true;
  }

  bool coordinate(const json& v, const std::string& field, bool horizontal, int& out) {
    int64_t n = 0;
    const auto fault = json_integer(v, 0, int64_t(horizontal ? desktop.width : desktop.height) - 1, n);
    if (fault == JsonNumberFault::kNotANumber || fault == JsonNumberFault::kNotWhole)
      return fail(field, "must be a whole number of desktop pixels");
    if (fault == JsonNumberFault::kOutOfRange)
      return fail(field, "outside the " + std::to_string(desktop.width) + "x" + std::to_string(desktop.height) +
                             " desktop");
    out = int(n);
    return true;
  }

  // "x" and "y" together, or neither when `optional`.
  bool position(const json& a, const std::string& base, bool optional, InputAction& out) {
    const bool has_x = a.contains("x"), has_y = a.contains("y");
    if (!has_x && !has_y) return optional || fail(join(base, "x"), "is required");
    if (!has_x) return fail(join(base, "x"), "is required with y");
    if (!has_y) return fail(join(base, "y"), "is required with x");
    out.positioned = true;
    return coordinate(a["x"], join(base, "x"), true, out.x) && coordinate(a["y"], join(base, "y"), false, out.y);
  }

  bool point(const json& a, const std::string& base, const char* name, int& x, int& y) {
    const std::string field = join(base, name);
    if (!a.contains(name)) return fail(field, "is required: [x, y]");
    const json& p = a[name];
    if (!p.is_array() || p.size() != 2) return fail(field, "must be [x, y]");
    return coordinate(p[0], field + "[0]", true, x) && coordinate(p[1], field + "[1]", false, y);
  }

  bool button(const json& a, const std::string& base, InputAction& out) {
    if (!a.contains("button")) return true;
    const std::string field = join(base, "button");
    const json& b = a["button"];
    static const std::pair<const char*, int> kNames[] = {{"left", input::kButtonLeft},
                                                         {"middle", input::kButtonMiddle},
                                                         {"right", input::kButtonRight},
                                                         {"back", input::kButtonBack},
                                                         {"forward", input::kButtonForward}};
    if (b.is_string()) {
      for (const auto& [name, n] : kNames)
        if (b.get<std::string>() == name) return out.button = n, true;
      return fail(field, "unknown button '" + b.get<std::string>() + "' (left, middle, right, back, forward)");
    }
    if (int64_t number = 0; json_integer(b, 1, 9, number) == JsonNumberFault::kNone) {
      for (const auto& [name, n] : kNames)
        if (number == n) return out.button = n, true;
    }
    return fail(field, "must be left, middle, right, back, forward or 1, 2, 3, 8, 9 (scroll with type scroll)");
  }

  bool only(const json& a, const std::string& base, std::initializer_list<const char*> known, const std::string& type) {
    for (const auto& item : a.items()) {
      // A named reference, not a structured binding: clang 14 cannot capture those.
      const std::string& key = item.key();
      if (key == "type" || std::any_of(known.begin(), known.end(), [&](const char* k) { return key == k; }))
        continue;
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      return fail(join(base, key), "is not a field of a " + type + " action (" + list + ")");
    }
    return true;
  }
};

bool parse_one(const json& a, const std::string& base, Checker& c, input::ScrollAccumulator& scroll,
               size_t& typed, InputAction& out) {
  out.name = base;
  if (!a.is_object()) return c.fail(base.empty() ? "actions" : base, "must be an object with a type");
  const std::string type_field = Checker::join(base, "type");
  if (!a.contains("type") || !a["type"].is_string())
    return c.fail(type_field, "is required: move, click, drag, scroll, key or type");
  const std::string type = a["type"].get<std::string>();
  if (type == "move") {
    out.type = Type::kMove;
    return c.only(a, base, {"x", "y"}, type) && c.position(a, base, false, out);
  }
  if (type == "click") {
    out.type = Type::kClick;
    if (!c.only(a, base, {"x", "y", "button", "count"}, type) || !c.position(a, base, true, out) ||
        !c.button(a, base, out))
      return false;
    return !a.contains("count") || c.integer(a["count"], Checker::join(base, "count"), 1, kMaxClickCount, out.count);
  }
  if (type == "drag") {
    out.type = Type::kDrag;
    out.positioned = true;
    return c.only(a, base, {"from", "to", "button"}, type) && c.point(a, base, "from", out.x, out.y) &&
           c.point(a, base, "to", out.to_x, out.to_y) && c.button(a, base, out);
  }
  if (type == "scroll") {
    out.type = Type::kScroll;
    if (!c.only(a, base, {"x", "y", "dx", "dy", "pixels_x", "pixels_y"}, type) || !c.position(a, base, true, out))
      return false;
    const bool notches = a.contains("dx") || a.contains("dy");
    const bool pixels = a.contains("pixels_x") || a.contains("pixels_y");
    if (notches && pixels)
      return c.fail(Checker::join(base, a.contains("pixels_x") ? "pixels_x" : "pixels_y"),
                    "cannot be mixed with dx/dy (notches) in one scroll");
    if (!notches && !pixels) return c.fail(Checker::join(base, "dy"), "is required: dy/dx in notches or pixels_y/pixels_x");
    if (notches) {
      for (const char* f : {"dx", "dy"}) {
        if (!a.contains(f)) continue;
        int& n = f[1] == 'x' ? out.notches_x : out.notches_y;
        if (!c.integer(a[f], Checker::join(base, f), -kMaxScrollNotches, kMaxScrollNotches, n)) return false;
      }
      return true;
    }
    double px[2] = {0, 0};
    const char* names[2] = {"pixels_x", "pixels_y"};
    const double max = kMaxScrollNotches * scroll.px_per_notch();
    for (int i = 0; i < 2; ++i) {
      if (!a.contains(names[i])) continue;
      const auto fault = json_number(a[names[i]], -max, max, px[i]);
      if (fault == JsonNumberFault::kNotANumber) return c.fail(Checker::join(base, names[i]), "must be a number of pixels");
      if (fault != JsonNumberFault::kNone)
        return c.fail(Checker::join(base, names[i]), "must be within +-" + std::to_string(int64_t(max)) + " pixels");
    }
    const input::Notches n = scroll.add_pixels(px[0], px[1]);
    out.notches_x = n.dx;
    out.notches_y = n.dy;
    return true;  // less than a notch carries to the next pixel scroll of this request
  }
  if (type == "key") {
    out.type = Type::kKey;
    if (!c.only(a, base, {"keys"}, type)) return false;
    const std::string field = Checker::join(base, "keys");
    if (!a.contains("keys") || !a["keys"].is_string() || a["keys"].get<std::string>().empty())
      return c.fail(field, "is required: a combo such as \"ctrl+shift+t\"");
    std::string bad;
    auto keys = input::parse_key_combo(a["keys"].get<std::string>(), &bad);
    if (!keys) return c.fail(field, "unknown key '" + bad + "'");
    out.keys = std::move(*keys);
    return true;
  }
  if (type == "type") {
    out.type = Type::kType;
    if (!c.only(a, base, {"text"}, type)) return false;
    const std::string field = Checker::join(base, "text");
    if (!a.contains("text") || !a["text"].is_string()) return c.fail(field, "is required: the text to type");
    out.text = a["text"].get<std::string>();
    const auto cps = decode_utf8(out.text);
    if (!cps) return c.fail(field, "is not valid UTF-8");
    for (size_t i = 0; i < cps->size(); ++i)
      if (!input::keysym_for_char((*cps)[i]))
        return c.fail(field, "character " + std::to_string(i) + " (U+" + [&] {
                               char hex[16];
                               std::snprintf(hex, sizeof hex, "%04X", unsigned((*cps)[i]));
                               return std::string(hex);
                             }() + ") cannot be typed");
    typed += cps->size();
    if (typed > kMaxTypedChars)
      return c.fail(field, "too much text: at most " + std::to_string(kMaxTypedChars) + " characters per request");
    return true;
  }
  return c.fail(type_field, "unknown action '" + type + "' (move, click, drag, scroll, key, type)");
}

// Intermediate pointer positions of a drag, so that applications with a
// drag threshold see motion between press and release.
constexpr int kDragSteps = 8;

}  // namespace

std::optional<std::vector<InputAction>> parse_input_actions(std::string_view body, Size desktop, double px_per_notch,
                                                            ActionError& error) {
  Checker c{desktop, error};
  const json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded()) return c.fail("body", "is not valid JSON"), std::nullopt;
  input::ScrollAccumulator scroll(px_per_notch);
  std::vector<InputAction> out;
  size_t typed = 0;
  if (doc.is_object() && doc.contains("actions")) {
    for (const auto& [key, value] : doc.items())
      if (key != "actions") return c.fail(key, "is not a field of the body (actions)"), std::nullopt;
    const json& list = doc["actions"];
    if (!list.is_array() || list.empty()) return c.fail("actions", "must be a non-empty array"), std::nullopt;
    if (list.size() > kMaxInputActions)
      return c.fail("actions", "at most " + std::to_string(kMaxInputActions) + " actions per request"), std::nullopt;
    out.resize(list.size());
    for (size_t i = 0; i < list.size(); ++i)
      if (!parse_one(list[i], "actions[" + std::to_string(i) + "]", c, scroll, typed, out[i])) return std::nullopt;
    return out;
  }
  if (!doc.is_object()) return c.fail("body", "must be {\"actions\": [...]} or one action object"), std::nullopt;
  out.resize(1);
  if (!parse_one(doc, "", c, scroll, typed, out[0])) return std::nullopt;
  return out;
}

void map_input_actions(std::vector<InputAction>& actions, const input::PictureMapping& picture) {
  remap_input_actions(actions, [&picture](int x, int y) { return picture.to_desktop(x, y); });
}

namespace {

// Presses `keys` in order; on a failure releases what it pressed. The
// number pressed is in `held`.
input::InputStatus press_all(const std::vector<uint32_t>& keys, input::InputInjector& inj, size_t& held) {
  held = 0;
  input::InputStatus s = input::InputStatus::kOk;
  for (; held < keys.size(); ++held)
    if ((s = inj.key(keys[held], true)) != input::InputStatus::kOk) break;
  return s;
}

// Releases the first `held` of `keys` in reverse order: modifiers last.
void release_all(const std::vector<uint32_t>& keys, size_t held, input::InputInjector& inj) {
  for (size_t i = std::min(held, keys.size()); i-- > 0;) inj.key(keys[i], false);
}

void play_pointer(const InputAction& a, input::InputInjector& inj) {
  switch (a.type) {
    case Type::kMove:
      inj.move(a.x, a.y);
      break;
    case Type::kClick:
      if (a.positioned) inj.move(a.x, a.y);
      for (int i = 0; i < a.count; ++i) {
        inj.button(a.button, true);
        inj.button(a.button, false);
      }
      break;
    case Type::kDrag:
      inj.move(a.x, a.y);
      inj.button(a.button, true);
      if (a.path.size() >= 2) {
        // Through every point, with steps between far-apart ones.
        for (size_t p = 1; p < a.path.size(); ++p) {
          const Point from = a.path[p - 1], to = a.path[p];
          for (int i = 1; i <= kDragSteps; ++i)
            inj.move(from.x + (to.x - from.x) * i / kDragSteps, from.y + (to.y - from.y) * i / kDragSteps);
        }
      } else {
        for (int i = 1; i <= kDragSteps; ++i)
          inj.move(a.x + (a.to_x - a.x) * i / kDragSteps, a.y + (a.to_y - a.y) * i / kDragSteps);
      }
      inj.button(a.button, false);
      break;
    case Type::kScroll:
      if (a.positioned) inj.move(a.x, a.y);
      if (a.notches_x || a.notches_y) inj.scroll_notches(a.notches_x, a.notches_y);
      break;
    case Type::kButton:
      if (a.positioned) inj.move(a.x, a.y);
      inj.button(a.button, a.down);
      break;
    case Type::kKey:
    case Type::kType:
      break;
  }
}

}  // namespace

RunOutcome run_input_actions(const std::vector<InputAction>& actions, input::InputInjector& inj) {
  using input::InputStatus;
  RunOutcome r;
  for (const InputAction& a : actions) {
    if (a.type == Type::kKey) {
      size_t held = 0;
      const InputStatus s = press_all(a.keys, inj, held);
      // Reverse order, also after a failed press: modifiers last.
      release_all(a.keys, held, inj);
      if (s != InputStatus::kOk) return r.status = s, r;
    } else if (a.type == Type::kType) {
      if (const InputStatus s = inj.type_text(a.text); s != InputStatus::kOk) return r.status = s, r;
    } else {
      size_t held = 0;
      const InputStatus s = press_all(a.modifiers, inj, held);
      if (s == InputStatus::kOk) play_pointer(a, inj);
      release_all(a.modifiers, held, inj);
      if (s != InputStatus::kOk) return r.status = s, r;
    }
    ++r.done;
  }
  return r;
}

}  // namespace voxl::endpoints
