#include "platform/atspi/atspi_accessibility.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "platform/atspi/atspi_ref.h"
#include "platform/atspi/atspi_tree_walk.h"
#include "platform/atspi/atspi_vocabulary.h"

namespace voxl::platform::atspi {
namespace {

constexpr const char* kRegistry = "org.a11y.atspi.Registry";
constexpr const char* kRegistryRoot = "/org/a11y/atspi/accessible/root";
// AtspiScrollType's ANYWHERE: the application picks where.
constexpr uint32_t kScrollAnywhere = 6;
// The accessible actions that press a thing, in the order we prefer them.
constexpr std::array<const char*, 7> kPressActions{"click", "press", "activate", "jump", "toggle", "open", "select"};

// Names the nodes' applications: a top-level application node by its own
// name, every other node by its top level's.
void name_applications(A11ySnapshot& s) {
  for (A11yNode& n : s.nodes) {
    if (n.parent >= 0)
      n.application = s.nodes[size_t(n.parent)].application;
    else if (n.role == "application")
      n.application = n.name;
  }
}

// One method call, answered within the deadline. Throws
// std::runtime_error with the application's or the bus's reason.
class OneCall {
 public:
  OneCall(sd_bus* bus, const BusObject& o, const char* interface, const char* member, A11yDeadline deadline)
      : bus_(bus), deadline_(deadline) {
    check(sd_bus_message_new_method_call(bus, &call_, o.name.c_str(), o.path.c_str(), interface, member));
  }
  ~OneCall() {
    sd_bus_message_unref(call_);
    sd_bus_message_unref(reply_);
    sd_bus_error_free(&error_);
  }
  OneCall(const OneCall&) = delete;
  OneCall& operator=(const OneCall&) = delete;

  sd_bus_message* args() { return call_; }
  // The reply, or null with error() set.
  sd_bus_message* send() {
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline_ - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      sd_bus_error_set_const(&error_, SD_BUS_ERROR_TIMEOUT, "the deadline passed");
      return nullptr;
    }
    return sd_bus_call(bus_, call_, uint64_t(left.count()), &error_, &reply_) < 0 ? nullptr : reply_;
  }
  std::string error() const { return error_.message ? error_.message : (error_.name ? error_.name : "failed"); }
  bool gone() const {
    return error_.name && (std::strcmp(error_.name, SD_BUS_ERROR_UNKNOWN_OBJECT) == 0 ||
                           std::strcmp(error_.name, SD_BUS_ERROR_NAME_HAS_NO_OWNER) == 0 ||
                           std::strcmp(error_.name, SD_BUS_ERROR_SERVICE_UNKNOWN) == 0);
  }
  // The element has no such method: it lacks the interface.
  bool no_method() const {
    return error_.name && (std::strcmp(error_.name, SD_BUS_ERROR_UNKNOWN_METHOD) == 0 ||
                           std::strcmp(error_.name, SD_BUS_ERROR_UNKNOWN_INTERFACE) == 0);
  }
  static void check(int r) {
    if (r < 0) throw std::runtime_error("the accessibility bus: " + std::system_category().message(-r));
  }

 private:
  sd_bus* bus_;
  A11yDeadline deadline_;
  sd_bus_message* call_ = nullptr;
  sd_bus_message* reply_ = nullptr;
  sd_bus_error error_ = SD_BUS_ERROR_NULL;
};

// The answer of a call whose answer is one boolean ("b"): done or refused.
A11yActed boolean_answer(OneCall& c, sd_bus_message* r, const std::string& what) {
  A11yActed out;
  int ok = 0;
  if (!r) {
    out.gone = c.gone();
    out.how = what + " failed: " + c.error();
  } else if (sd_bus_message_read(r, "b", &ok) < 0 || !ok) {
    out.how = what + " was refused by the application";
  } else {
    out.done = true;
    out.how = what;
  }
  return out;
}

A11yActed boolean_call(OneCall& c, const std::string& what) { return boolean_answer(c, c.send(), what); }

}  // namespace

AtspiAccessibility::AtspiAccessibility(AtspiConnection::RootProperty root_property)
    : connection_(std::move(root_property)) {}

bool AtspiAccessibility::run(CallBatch& batch) {
  bool complete = false;
  try {
    complete = batch.run();
  } catch (const std::exception&) {
    connection_.reset();
    throw;
  }
  if (!complete) connection_.reset();
  return complete;
}

void AtspiAccessibility::finish(CallBatch& batch, A11ySnapshot& out) {
  if (run(batch)) return;
  out.time_cut = true;
  for (const auto& [name, count] : batch.unanswered()) {
    std::string label = name;
    for (const A11yNode& n : out.nodes)
      if (n.parent < 0 && n.role == "application" && n.ref.starts_with(name.substr(1) + "/") && !n.name.empty())
        label = n.name + " (" + name + ")";
    out.unanswered.push_back(label);
  }
}

std::vector<BusObject> AtspiAccessibility::applications(A11yDeadline deadline, A11ySnapshot& out) {
  CallBatch batch(connection_.get(), deadline);
  std::vector<BusObject> apps;
  bool answered = false;
  std::string why;
  batch.call(BusObject{kRegistry, kRegistryRoot}, "org.a11y.atspi.Accessible", "GetChildren",
             [&](sd_bus_message* m, const sd_bus_error* e) {
               answered = m != nullptr;
               if (!m) {
                 why = e && e->message ? e->message : "no answer";
                 return;
               }
               if (sd_bus_message_enter_container(m, 'a', "(so)") < 0) return;
               const char *name = nullptr, *path = nullptr;
               while (apps.size() < 1000 && sd_bus_message_read(m, "(so)", &name, &path) > 0)
                 if (name && path && *name && std::strcmp(path, "/org/a11y/atspi/null") != 0)
                   apps.push_back(BusObject{name, path});
             });
  finish(batch, out);
  if (!answered && !out.time_cut)
    throw std::runtime_error("the accessibility registry did not answer (" + why +
                             "): is at-spi2-registryd running on the accessibility bus?");
  return apps;
}

std::map<std::string, AppCache> AtspiAccessibility::caches(const std::vector<BusObject>& apps, A11yDeadline deadline) {
  // A third of the time left at most: an application that does not answer
  // is then read element by element, as one without a cache is.
  const auto now = std::chrono::steady_clock::now();
  std::map<std::string, AppCache> out;
  CallBatch batch(connection_.get(), now + (deadline - now) / 3);
  ask_app_caches(batch, apps, kMaxCached, out);
  run(batch);
  return out;
}

A11ySnapshot AtspiAccessibility::snapshot(const A11yScope& scope, const A11yLimits& limits) {
  A11ySnapshot out;
  if (scope.kind == A11yScope::Kind::kNode) {
    const auto o = object_of(scope.ref);
    if (!o) throw std::invalid_argument("not an element id");
    const auto cached = caches({BusObject{o->name, kRegistryRoot}}, limits.deadline);
    CallBatch batch(connection_.get(), limits.deadline);
    TreeWalk walk(batch, limits, out);
    walk.use_caches(&cached);
    walk.add_root(*o, "");
    finish(batch, out);
    return out;
  }
  const std::vector<BusObject> apps = applications(limits.deadline, out);
  const auto cached = caches(apps, limits.deadline);
  if (scope.kind == A11yScope::Kind::kDesktop) {
    CallBatch batch(connection_.get(), limits.deadline);
    TreeWalk walk(batch, limits, out);
    walk.use_caches(&cached);
    for (const BusObject& app : apps) walk.add_root(app, "");
    finish(batch, out);
    name_applications(out);
    return out;
  }
  // The active window: the applications and their windows first.
  A11ySnapshot windows;
  {
    A11yLimits shallow = limits;
    shallow.max_depth = 1;
    CallBatch batch(connection_.get(), limits.deadline);
    TreeWalk walk(batch, shallow, windows);
    walk.use_caches(&cached);
    for (const BusObject& app : apps) walk.add_root(app, "");
    finish(batch, windows);
    name_applications(windows);
  }
  out.time_cut = windows.time_cut;
  out.unanswered = windows.unanswered;
  const A11yNode* chosen = nullptr;
  for (const A11yNode& n : windows.nodes)
    if (n.depth == 1 && (n.states & kA11yActive)) chosen = &n;
  if (!chosen) {
    // No window says it is active (without a window manager none may be):
    // the largest window on screen, and the answer says it was a guess.
    int64_t largest = 0;
    for (const A11yNode& n : windows.nodes)
      if (n.depth == 1 && (n.states & kA11yShowing) && n.bounds && n.bounds->area() > largest)
        largest = n.bounds->area(), chosen = &n;
    out.window_guessed = chosen != nullptr;
  }
  if (!chosen) return out;
  CallBatch batch(connection_.get(), limits.deadline);
  TreeWalk walk(batch, limits, out);
  walk.use_caches(&cached);
  walk.add_root(*object_of(chosen->ref), chosen->application);
  finish(batch, out);
  return out;
}

std::optional<A11yNode> AtspiAccessibility::describe(const std::string& ref, A11yDeadline deadline) {
  const auto o = object_of(ref);
  if (!o) return std::nullopt;
  A11ySnapshot out;
  A11yLimits limits;
  limits.deadline = deadline;
  CallBatch batch(connection_.get(), deadline);
  TreeWalk walk(batch, limits, out);
  walk.add_root(*o, "", false);
  finish(batch, out);
  if (out.nodes.empty() || out.nodes[0].role.empty()) return std::nullopt;
  return out.nodes[0];
}

A11yActed AtspiAccessibility::act(const std::string& ref, A11yAction action, const std::string& text,
                                  A11yDeadline deadline) {
  const auto o = object_of(ref);
  if (!o) return A11yActed{false, "not an element id", std::nullopt, true};
  sd_bus* bus = connection_.get();
  const auto centre = [&]() -> A11yActed {
    OneCall c(bus, *o, "org.a11y.atspi.Component", "GetExtents", deadline);
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
  };
  switch (action) {
    case A11yAction::kClick: {
      OneCall c(bus, *o, "org.a11y.atspi.Action", "GetActions", deadline);
      sd_bus_message* r = c.send();
      if (!r && c.gone()) return A11yActed{false, "it is gone", std::nullopt, true};
      int index = -1;
      std::string chosen;
      if (r && sd_bus_message_enter_container(r, 'a', "(sss)") >= 0) {
        std::vector<std::string> names;
        const char *name = nullptr, *description = nullptr, *keys = nullptr;
        while (names.size() < TreeWalk::kMaxActions && sd_bus_message_read(r, "(sss)", &name, &description, &keys) > 0)
          names.emplace_back(name ? name : "");
        // Their own names, not the application's language's.
        for (size_t i = 0; i < names.size(); ++i) {
          OneCall n(bus, *o, "org.a11y.atspi.Action", "GetName", deadline);
          OneCall::check(sd_bus_message_append(n.args(), "i", int32_t(i)));
          const char* own = nullptr;
          if (sd_bus_message* reply = n.send(); reply && sd_bus_message_read(reply, "s", &own) >= 0 && own && *own)
            names[i] = own;
        }
        for (const char* wanted : kPressActions) {
          const auto it = std::find(names.begin(), names.end(), wanted);
          if (it != names.end()) {
            index = int(it - names.begin());
            chosen = wanted;
            break;
          }
        }
      }
      if (index < 0) return centre();
      OneCall d(bus, *o, "org.a11y.atspi.Action", "DoAction", deadline);
      OneCall::check(sd_bus_message_append(d.args(), "i", int32_t(index)));
      return boolean_call(d, "the accessible action \"" + chosen + "\"");
    }
    case A11yAction::kFocus: {
      OneCall c(bus, *o, "org.a11y.atspi.Component", "GrabFocus", deadline);
      return boolean_call(c, "focus");
    }
    case A11yAction::kSetText: {
      OneCall c(bus, *o, "org.a11y.atspi.EditableText", "SetTextContents", deadline);
      OneCall::check(sd_bus_message_append(c.args(), "s", text.c_str()));
      sd_bus_message* r = c.send();
      if (r || !c.no_method()) return boolean_answer(c, r, "set its text");
      // No editable text (Chromium's fields): focused, it is typed into.
      OneCall f(bus, *o, "org.a11y.atspi.Component", "GrabFocus", deadline);
      A11yActed out = boolean_call(f, "focus");
      if (!out.done) {
        out.how = "it takes no text and could not be focused to type into (" + out.how + ")";
        return out;
      }
      out.done = false;
      out.type_instead = true;
      out.how = "focused it, selected what it held and typed the text (it takes no text directly)";
      return out;
    }
    case A11yAction::kScrollIntoView: {
      OneCall c(bus, *o, "org.a11y.atspi.Component", "ScrollTo", deadline);
      OneCall::check(sd_bus_message_append(c.args(), "u", kScrollAnywhere));
      return boolean_call(c, "scroll it into view");
    }
    case A11yAction::kSelect: {
      OneCall parent(bus, *o, "org.freedesktop.DBus.Properties", "Get", deadline);
      OneCall::check(sd_bus_message_append(parent.args(), "ss", "org.a11y.atspi.Accessible", "Parent"));
      OneCall index(bus, *o, "org.a11y.atspi.Accessible", "GetIndexInParent", deadline);
      sd_bus_message* p = parent.send();
      sd_bus_message* i = index.send();
      const char *name = nullptr, *path = nullptr;
      int32_t at = -1;
      if (!p || !i || sd_bus_message_read(p, "v", "(so)", &name, &path) < 0 || !name || !path ||
          sd_bus_message_read(i, "i", &at) < 0 || at < 0)
        return A11yActed{false, "its place among its siblings is unknown (" + parent.error() + ")", std::nullopt,
                         parent.gone() || index.gone()};
      OneCall s(bus, BusObject{name, path}, "org.a11y.atspi.Selection", "SelectChild", deadline);
      OneCall::check(sd_bus_message_append(s.args(), "i", at));
      return boolean_call(s, "select it in its parent");
    }
  }
  return A11yActed{false, "unknown action", std::nullopt, false};
}

}  // namespace voxl::platform::atspi
