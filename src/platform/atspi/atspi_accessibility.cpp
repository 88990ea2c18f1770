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
#include "platform/atspi/element_actions.h"

namespace voxl::platform::atspi {
namespace {

constexpr const char* kRegistry = "org.a11y.atspi.Registry";
constexpr const char* kRegistryRoot = "/org/a11y/atspi/accessible/root";
// set_text reads back texts this long at most (UTF-8 bytes), fewer than
// the characters an element's text is read to (TreeWalk::kMaxText).
constexpr size_t kCheckedBytes = 1000;

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
  CallBatch batch(connection_.get(), deadline, &connection_.direct());
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

AppFacts AtspiAccessibility::facts(const std::vector<BusObject>& apps, A11yDeadline deadline) {
  // A third of the time left at most: an application that does not answer
  // is then read element by element, as one without a cache is.
  const auto now = std::chrono::steady_clock::now();
  AppFacts out;
  CallBatch batch(connection_.get(), now + (deadline - now) / 3, &connection_.direct());
  ask_app_facts(batch, apps, kMaxCached, connection_.direct(), out);
  run(batch);
  return out;
}

A11ySnapshot AtspiAccessibility::snapshot(const A11yScope& scope, const A11yLimits& limits) {
  A11ySnapshot out;
  if (scope.kind == A11yScope::Kind::kNode) {
    const auto o = object_of(scope.ref);
    if (!o) throw std::invalid_argument("not an element id");
    const auto cached = facts({BusObject{o->name, kRegistryRoot}}, limits.deadline);
    CallBatch batch(connection_.get(), limits.deadline, &connection_.direct());
    TreeWalk walk(batch, limits, out);
    walk.use_caches(&cached);
    walk.add_root(*o, "");
    finish(batch, out);
    return out;
  }
  const std::vector<BusObject> apps = applications(limits.deadline, out);
  const auto cached = facts(apps, limits.deadline);
  if (scope.kind == A11yScope::Kind::kDesktop) {
    CallBatch batch(connection_.get(), limits.deadline, &connection_.direct());
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
    CallBatch batch(connection_.get(), limits.deadline, &connection_.direct());
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
  CallBatch batch(connection_.get(), limits.deadline, &connection_.direct());
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
  CallBatch batch(connection_.get(), deadline, &connection_.direct());
  TreeWalk walk(batch, limits, out);
  walk.add_root(*o, "", false);
  finish(batch, out);
  if (out.nodes.empty() || out.nodes[0].role.empty()) return std::nullopt;
  return out.nodes[0];
}

A11yActed AtspiAccessibility::act(const std::string& ref, A11yAction action, const std::string& text,
                                  A11yDeadline deadline) {
  const auto o = object_of(ref);
  if (!o) return A11yActed{false, "not an element id", std::nullopt, false, true};
  sd_bus* bus = connection_.get();
  switch (action) {
    case A11yAction::kClick:
      return press_element(bus, *o, deadline);
    case A11yAction::kFocus:
      return focus_element(bus, *o, deadline);
    case A11yAction::kSetText: {
      const A11yActed set = set_element_text(bus, *o, text, deadline);
      if (!set.done || text.size() > kCheckedBytes) return set;
      // Firefox's fields say yes and keep their text: read it back.
      const auto now = describe(ref, deadline);
      if (!now || now->secret || !now->value || *now->value == text) return set;
      return type_into_element(bus, *o, deadline, "the application said it set the text, and its text reads otherwise");
    }
    case A11yAction::kScrollIntoView:
      return scroll_element_into_view(bus, *o, deadline);
    case A11yAction::kSelect:
      return select_element(bus, *o, deadline);
  }
  return A11yActed{false, "unknown action", std::nullopt, false, false};
}

}  // namespace voxl::platform::atspi
