#include "platform/atspi/element_actions.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "platform/atspi/atspi_tree_walk.h"
#include "platform/atspi/one_call.h"

namespace voxl::platform::atspi {
namespace {

// AtspiScrollType's ANYWHERE: the application picks where.
constexpr uint32_t kScrollAnywhere = 6;
// The accessible actions that press a thing, in the order we prefer them.
constexpr std::array<const char*, 9> kPressActions{"click", "press", "activate", "jump", "toggle", "check", "uncheck",
                                                  "open", "select"};
// How far up an action lifts from an element to what holds it.
constexpr int kMaxLift = 3;

A11yActed outcome(bool done, std::string how) {
  A11yActed out;
  out.done = done;
  out.how = std::move(how);
  return out;
}

// An element's parent and its index among the parent's children.
struct Place {
  BusObject parent;
  int32_t index = -1;
  std::string error;
  bool gone = false;
};

Place place_of(sd_bus* bus, const BusObject& o, A11yDeadline deadline) {
  OneCall parent(bus, o, "org.freedesktop.DBus.Properties", "Get", deadline);
  OneCall::check(sd_bus_message_append(parent.args(), "ss", "org.a11y.atspi.Accessible", "Parent"));
  OneCall index(bus, o, "org.a11y.atspi.Accessible", "GetIndexInParent", deadline);
  sd_bus_message* p = parent.send();
  sd_bus_message* i = p ? index.send() : nullptr;
  Place out;
  const char *name = nullptr, *path = nullptr;
  if (!p || !i || sd_bus_message_read(p, "v", "(so)", &name, &path) < 0 || !name || !path ||
      sd_bus_message_read(i, "i", &out.index) < 0 || out.index < 0 || std::strcmp(path, "/org/a11y/atspi/null") == 0) {
    out.error = !p ? parent.error() : !i ? index.error() : "it has no parent";
    out.gone = parent.gone() || index.gone();
    out.index = -1;
    return out;
  }
  out.parent = BusObject{name, path};
  return out;
}

// "list item", "page tab"...: for saying what was acted on instead.
std::string role_of(sd_bus* bus, const BusObject& o, A11yDeadline deadline) {
  OneCall c(bus, o, "org.a11y.atspi.Accessible", "GetRoleName", deadline);
  const char* role = nullptr;
  sd_bus_message* r = c.send();
  if (r && sd_bus_message_read(r, "s", &role) >= 0 && role && *role) return role;
  return "element";
}

A11yActed centre_of(sd_bus* bus, const BusObject& o, A11yDeadline deadline) {
  OneCall c(bus, o, "org.a11y.atspi.Component", "GetExtents", deadline);
  OneCall::check(sd_bus_message_append(c.args(), "u", uint32_t{0}));
  A11yActed out;
  sd_bus_message* r = c.send();
  int32_t x = 0, y = 0, w = 0, h = 0;
  if (!r) {
    out.gone = c.gone();
    out.how = "it has no accessible action to press and no place on the screen (" + c.error() + ")";
  } else if (sd_bus_message_read(r, "(iiii)", &x, &y, &w, &h) < 0 || w <= 0 || h <= 0) {
    out.how = "it has no accessible action to press and no place on the screen";
  } else {
    out.click_at = Point{x + w / 2, y + h / 2};
    out.how = "a click at its centre";
  }
  return out;
}

// The element's accessible actions by their own names (GetActions gives
// the application's language's).
std::vector<std::string> action_names(sd_bus* bus, const BusObject& o, A11yDeadline deadline, bool& gone) {
  OneCall c(bus, o, "org.a11y.atspi.Action", "GetActions", deadline);
  sd_bus_message* r = c.send();
  gone = !r && c.gone();
  std::vector<std::string> names;
  if (!r || sd_bus_message_enter_container(r, 'a', "(sss)") < 0) return names;
  const char *name = nullptr, *description = nullptr, *keys = nullptr;
  while (names.size() < TreeWalk::kMaxActions && sd_bus_message_read(r, "(sss)", &name, &description, &keys) > 0)
    names.emplace_back(name ? name : "");
  for (size_t i = 0; i < names.size(); ++i) {
    OneCall n(bus, o, "org.a11y.atspi.Action", "GetName", deadline);
    OneCall::check(sd_bus_message_append(n.args(), "i", int32_t(i)));
    const char* own = nullptr;
    if (sd_bus_message* reply = n.send(); reply && sd_bus_message_read(reply, "s", &own) >= 0 && own && *own)
      names[i] = own;
  }
  return names;
}

}  // namespace

A11yActed press_element(sd_bus* bus, const BusObject& o, A11yDeadline deadline) {
  bool gone = false;
  const std::vector<std::string> names = action_names(bus, o, deadline, gone);
  if (gone) return A11yActed{false, "it is gone", std::nullopt, false, true};
  for (const char* wanted : kPressActions) {
    const auto it = std::find(names.begin(), names.end(), wanted);
    if (it == names.end()) continue;
    OneCall d(bus, o, "org.a11y.atspi.Action", "DoAction", deadline);
    OneCall::check(sd_bus_message_append(d.args(), "i", int32_t(it - names.begin())));
    return boolean_call(d, std::string("the accessible action \"") + wanted + "\"");
  }
  return centre_of(bus, o, deadline);
}

A11yActed focus_element(sd_bus* bus, const BusObject& o, A11yDeadline deadline) {
  OneCall c(bus, o, "org.a11y.atspi.Component", "GrabFocus", deadline);
  return boolean_call(c, "focus");
}

A11yActed set_element_text(sd_bus* bus, const BusObject& o, const std::string& text, A11yDeadline deadline) {
  OneCall c(bus, o, "org.a11y.atspi.EditableText", "SetTextContents", deadline);
  OneCall::check(sd_bus_message_append(c.args(), "s", text.c_str()));
  sd_bus_message* r = c.send();
  if (!r && c.no_method()) return type_into_element(bus, o, deadline, "it takes no text directly");
  return boolean_answer(c, r, "set its text");
}

A11yActed type_into_element(sd_bus* bus, const BusObject& o, A11yDeadline deadline, const std::string& why) {
  A11yActed out = focus_element(bus, o, deadline);
  if (!out.done) {
    out.how = why + ", and it could not be focused to type into (" + out.how + ")";
    return out;
  }
  out.done = false;
  out.type_instead = true;
  out.how = "focused it, selected what it held and typed the text (" + why + ")";
  return out;
}

A11yActed scroll_element_into_view(sd_bus* bus, const BusObject& o, A11yDeadline deadline) {
  OneCall c(bus, o, "org.a11y.atspi.Component", "ScrollTo", deadline);
  OneCall::check(sd_bus_message_append(c.args(), "u", kScrollAnywhere));
  const A11yActed asked = boolean_call(c, "scroll it into view");
  if (asked.done || asked.gone) return asked;
  // GTK 3 scrolls nothing on request, but a scroller brings the widget
  // that takes the focus into view: the element, or what holds it.
  BusObject e = o;
  for (int level = 0; level <= kMaxLift; ++level) {
    OneCall f(bus, e, "org.a11y.atspi.Component", "GrabFocus", deadline);
    const A11yActed focused = boolean_call(f, "focus");
    if (focused.gone && level == 0) return focused;
    if (focused.done) {
      const std::string what = level == 0 ? "it" : "the " + role_of(bus, e, deadline) + " that holds it";
      return outcome(true, "focused " + what + ", which its scroller brings into view (the application does not "
                           "scroll on request: " + asked.how + ")");
    }
    const Place up = place_of(bus, e, deadline);
    if (up.index < 0) break;
    e = up.parent;
  }
  return outcome(false, asked.how + ", and neither it nor what holds it takes the focus");
}

A11yActed select_element(sd_bus* bus, const BusObject& o, A11yDeadline deadline) {
  BusObject e = o;
  for (int level = 0; level <= kMaxLift; ++level) {
    const Place place = place_of(bus, e, deadline);
    if (place.index < 0)
      return A11yActed{false, "its place among its siblings is unknown (" + place.error + ")", std::nullopt, false,
                       place.gone && level == 0};
    OneCall s(bus, place.parent, "org.a11y.atspi.Selection", "SelectChild", deadline);
    OneCall::check(sd_bus_message_append(s.args(), "i", place.index));
    sd_bus_message* r = s.send();
    if (!r && s.no_method()) {
      e = place.parent;  // its parent is no list: perhaps the parent is a row of one
      continue;
    }
    const std::string what = level == 0 ? "select it" : "select the " + role_of(bus, e, deadline) + " that holds it";
    A11yActed out = boolean_answer(s, r, what + " in its parent");
    out.gone = out.gone && level == 0;
    return out;
  }
  return outcome(false, "neither it nor what holds it is in anything that takes a selection (a list, a tab bar, a menu)");
}

}  // namespace voxl::platform::atspi
