#include "platform/atspi/atspi_tree_walk.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "platform/atspi/atspi_ref.h"
#include "platform/atspi/atspi_vocabulary.h"

namespace voxl::platform::atspi {
namespace {

constexpr const char* kAccessible = "org.a11y.atspi.Accessible";
constexpr const char* kComponent = "org.a11y.atspi.Component";
constexpr const char* kAction = "org.a11y.atspi.Action";
constexpr const char* kText = "org.a11y.atspi.Text";
constexpr const char* kEditableText = "org.a11y.atspi.EditableText";
constexpr const char* kValue = "org.a11y.atspi.Value";
constexpr const char* kProperties = "org.freedesktop.DBus.Properties";
constexpr uint32_t kCoordScreen = 0;

// Reads the "s" of a variant whose type is "s"; skips any other.
void read_string_variant(sd_bus_message* m, std::string& to) {
  const char* s = nullptr;
  if (sd_bus_message_read(m, "v", "s", &s) >= 0 && s) to = s;
}

}  // namespace

TreeWalk::TreeWalk(CallBatch& batch, const A11yLimits& limits, A11ySnapshot& out)
    : batch_(batch), limits_(limits), out_(out) {}

void TreeWalk::add_root(const BusObject& o, const std::string& application, bool children) {
  if (int(out_.nodes.size()) >= limits_.max_nodes) {
    out_.count_cut = true;
    return;
  }
  ask(add(o, -1, 0, application, children));
}

int TreeWalk::add(const BusObject& o, int parent, int depth, const std::string& application, bool children) {
  A11yNode& n = out_.nodes.emplace_back();
  n.ref = ref_of(o);
  n.parent = parent;
  n.depth = depth;
  n.application = application;
  Facts& f = facts_.emplace_back();
  f.object = o;
  f.children = children;
  return int(out_.nodes.size()) - 1;
}

bool TreeWalk::has(int node, const char* interface) const {
  const auto& list = facts_[size_t(node)].interfaces;
  return std::find(list.begin(), list.end(), interface) != list.end();
}

bool TreeWalk::may_have(int node, const char* interface) const {
  return !facts_[size_t(node)].interfaces_known || has(node, interface);
}

bool TreeWalk::from_cache(int node) {
  if (!apps_) return false;
  const BusObject o = facts_[size_t(node)].object;
  const auto app = apps_->caches.find(o.name);
  if (app == apps_->caches.end()) return false;
  const auto it = app->second.find(o.path);
  if (it == app->second.end()) return false;
  const CachedElement& e = it->second;
  {
    A11yNode& n = out_.nodes[size_t(node)];
    Facts& f = facts_[size_t(node)];
    n.name = e.name;
    n.description = e.description;
    n.child_count = std::max(0, e.child_count);
    n.role = role_name(e.role);
    n.secret = e.role == kRolePasswordText;
    n.states = states_from_words(e.states);
    f.role = e.role;
    f.interfaces = e.interfaces;
    f.role_known = f.interfaces_known = f.states_known = f.properties_known = true;
  }
  on_facts(node);
  if (!facts_[size_t(node)].children) return true;
  // Children the cache does not hold all of (they come and go, or were
  // made since) are asked for.
  if (e.child_count < 0 || e.children.size() != size_t(e.child_count)) {
    batch_.call(o, kAccessible, "GetChildren",
                [this, node](sd_bus_message* m, const sd_bus_error*) { on_children(node, m); });
    return true;
  }
  for (const std::string& path : e.children)
    if (!add_child(node, BusObject{o.name, path})) break;
  return true;
}

void TreeWalk::ask(int node) {
  if (from_cache(node)) return;
  const BusObject o = facts_[size_t(node)].object;
  batch_.call(
      o, kProperties, "GetAll",
      [this, node](sd_bus_message* m, const sd_bus_error*) {
        // Its children when it has any (most elements have none), or when
        // it did not say how many it has.
        const int count = read_properties(node, m);
        if ((count != 0) && facts_[size_t(node)].children)
          batch_.call(facts_[size_t(node)].object, kAccessible, "GetChildren",
                      [this, node](sd_bus_message* r, const sd_bus_error*) { on_children(node, r); });
        facts_[size_t(node)].properties_known = true;
        on_facts(node);
      },
      [](sd_bus_message* m) { return sd_bus_message_append(m, "s", kAccessible); });
  batch_.call(o, kAccessible, "GetRole", [this, node](sd_bus_message* m, const sd_bus_error*) {
    uint32_t role = 0;
    if (m && sd_bus_message_read(m, "u", &role) >= 0) {
      facts_[size_t(node)].role = role;
      out_.nodes[size_t(node)].role = role_name(role);
      out_.nodes[size_t(node)].secret = role == kRolePasswordText;
    }
    facts_[size_t(node)].role_known = true;
    on_facts(node);
  });
  batch_.call(o, kAccessible, "GetState", [this, node](sd_bus_message* m, const sd_bus_error*) {
    const void* words = nullptr;
    size_t bytes = 0;
    if (m && sd_bus_message_read_array(m, 'u', &words, &bytes) >= 0)
      out_.nodes[size_t(node)].states =
          states_from_words(std::span(static_cast<const uint32_t*>(words), bytes / sizeof(uint32_t)));
    facts_[size_t(node)].states_known = true;
    on_facts(node);
  });
}

int TreeWalk::read_properties(int node, sd_bus_message* m) {
  if (!m || sd_bus_message_enter_container(m, 'a', "{sv}") < 0) return -1;
  A11yNode& n = out_.nodes[size_t(node)];
  int children = -1;
  while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
    const char* key = nullptr;
    if (sd_bus_message_read(m, "s", &key) < 0 || !key) return children;
    if (std::strcmp(key, "Name") == 0) {
      read_string_variant(m, n.name);
    } else if (std::strcmp(key, "Description") == 0) {
      read_string_variant(m, n.description);
    } else if (std::strcmp(key, "ChildCount") == 0) {
      int32_t count = 0;
      if (sd_bus_message_read(m, "v", "i", &count) >= 0) children = n.child_count = std::max(0, count);
    } else if (sd_bus_message_skip(m, "v") < 0) {
      return children;
    }
    if (sd_bus_message_exit_container(m) < 0) return children;
  }
  return children;
}

void TreeWalk::on_facts(int node) {
  {
    const Facts& f = facts_[size_t(node)];
    if (!f.role_known || !f.states_known || !f.properties_known) return;
  }
  // Copies: an answer may come (as a failure) inside call(), and grow facts_.
  const BusObject o = facts_[size_t(node)].object;
  const bool interfaces_known = facts_[size_t(node)].interfaces_known;
  const uint32_t role = facts_[size_t(node)].role;
  // Where it is and what it does, for what is on screen (an agent scrolls
  // to the rest first). An element the application's cache did not hold
  // is asked without its interfaces known (asking for them would cost as
  // much as a question it cannot answer).
  const bool showing = (out_.nodes[size_t(node)].states & kA11yShowing) != 0;
  if (showing && may_have(node, kComponent))
    batch_.call(
        o, kComponent, "GetExtents",
        [this, node](sd_bus_message* m, const sd_bus_error*) {
          int32_t x = 0, y = 0, w = 0, h = 0;
          if (m && sd_bus_message_read(m, "(iiii)", &x, &y, &w, &h) >= 0 && w > 0 && h > 0 && x > -(1 << 24) &&
              y > -(1 << 24) && x < (1 << 24) && y < (1 << 24) && w < (1 << 24) && h < (1 << 24))
            out_.nodes[size_t(node)].bounds = Rect{x, y, w, h};
        },
        [](sd_bus_message* m) { return sd_bus_message_append(m, "u", kCoordScreen); });
  if (showing && may_have(node, kAction))
    batch_.call(o, kAction, "GetActions", [this, node](sd_bus_message* m, const sd_bus_error*) {
      if (!m || sd_bus_message_enter_container(m, 'a', "(sss)") < 0) return;
      const char *name = nullptr, *description = nullptr, *keys = nullptr;
      auto& actions = out_.nodes[size_t(node)].actions;
      while (actions.size() < kMaxActions && sd_bus_message_read(m, "(sss)", &name, &description, &keys) > 0)
        actions.emplace_back(name ? name : "");
      if (!actions.empty()) own_action_names(node);
    });
  const A11yNode& n = out_.nodes[size_t(node)];
  // The text of what a person edits, or of an element with no name (a
  // paragraph, a label); never a password field's.
  if (!n.secret && may_have(node, kText) && (has(node, kEditableText) || (n.states & kA11yEditable) || n.name.empty()))
    read_text(node);
  else if (!n.secret && (interfaces_known ? has(node, kValue) : role_has_value(role)))
    batch_.call(
        o, kProperties, "Get",
        [this, node](sd_bus_message* m, const sd_bus_error*) {
          double v = 0;
          if (!m || sd_bus_message_read(m, "v", "d", &v) < 0 || !std::isfinite(v)) return;
          char text[32];
          std::snprintf(text, sizeof text, "%.10g", v);
          out_.nodes[size_t(node)].value = text;
        },
        [](sd_bus_message* m) { return sd_bus_message_append(m, "ss", kValue, "CurrentValue"); });
}

void TreeWalk::own_action_names(int node) {
  // GetActions may name them in the application's language; GetName gives
  // each one's own name ("click"), which agents ask for. Elements whose
  // actions read alike have the same own names: they are asked of the
  // first one only.
  const BusObject o = facts_[size_t(node)].object;
  std::string key = o.name;
  for (const std::string& a : out_.nodes[size_t(node)].actions) key += '\0' + a;
  auto [it, first] = action_names_.try_emplace(key);
  ActionNames& names = it->second;
  if (!first) {
    if (names.left == 0)
      out_.nodes[size_t(node)].actions = names.own;
    else
      names.waiting.push_back(node);
    return;
  }
  names.own = out_.nodes[size_t(node)].actions;
  names.left = names.own.size();
  names.waiting.push_back(node);
  for (size_t i = 0; i < names.own.size(); ++i)
    batch_.call(
        o, kAction, "GetName",
        [this, key, i](sd_bus_message* r, const sd_bus_error*) {
          ActionNames& entry = action_names_[key];
          const char* own = nullptr;
          if (r && sd_bus_message_read(r, "s", &own) >= 0 && own && *own) entry.own[i] = own;
          if (--entry.left > 0) return;
          for (const int waiting : entry.waiting) out_.nodes[size_t(waiting)].actions = entry.own;
          entry.waiting.clear();
        },
        [i](sd_bus_message* call) { return sd_bus_message_append(call, "i", int32_t(i)); });
}

void TreeWalk::read_text(int node) {
  const BusObject o = facts_[size_t(node)].object;
  const auto get_text = [this, node, o](int32_t end) {
    batch_.call(
        o, kText, "GetText",
        [this, node](sd_bus_message* r, const sd_bus_error*) {
          const char* text = nullptr;
          if (!r || sd_bus_message_read(r, "s", &text) < 0 || !text) return;
          A11yNode& n = out_.nodes[size_t(node)];
          std::string value = without_object_characters(text);
          // A document's text is its children's places: no value.
          if (!value.empty() || (n.states & kA11yEditable)) n.value = std::move(value);
        },
        [end](sd_bus_message* call) { return sd_bus_message_append(call, "ii", 0, end); });
  };
  // Chromium answers a range past the end with the text there is: one
  // question. Others are asked for the length first (Firefox answers
  // nothing for such a range; GTK 3's labels would read past their text).
  if (toolkit_of(o.name) == "Chromium") {
    get_text(kMaxText);
    return;
  }
  batch_.call(
      o, kProperties, "Get",
      [this, node, get_text](sd_bus_message* m, const sd_bus_error*) {
        int32_t count = 0;
        if (!m || sd_bus_message_read(m, "v", "i", &count) < 0) return;
        if (count > 0) {
          get_text(std::min(count, int32_t{kMaxText}));
        } else if (out_.nodes[size_t(node)].states & kA11yEditable) {
          out_.nodes[size_t(node)].value.emplace();
        }
      },
      [](sd_bus_message* m) { return sd_bus_message_append(m, "ss", kText, "CharacterCount"); });
}

std::string_view TreeWalk::toolkit_of(const std::string& application) const {
  if (!apps_) return {};
  const auto it = apps_->toolkits.find(application);
  return it == apps_->toolkits.end() ? std::string_view{} : std::string_view(it->second);
}

void TreeWalk::on_children(int node, sd_bus_message* m) {
  if (!m || sd_bus_message_enter_container(m, 'a', "(so)") < 0) return;
  const char *name = nullptr, *path = nullptr;
  while (sd_bus_message_read(m, "(so)", &name, &path) > 0) {
    if (!name || !path || !*name || std::strcmp(path, "/org/a11y/atspi/null") == 0) continue;
    if (!add_child(node, BusObject{name, path})) return;
  }
}

bool TreeWalk::add_child(int node, const BusObject& child) {
  const int depth = out_.nodes[size_t(node)].depth + 1;
  if (depth > limits_.max_depth) {
    out_.depth_cut = true;
    return false;
  }
  if (int(out_.nodes.size()) >= limits_.max_nodes) {
    out_.count_cut = true;
    return false;
  }
  const std::string application = out_.nodes[size_t(node)].application;
  ask(add(child, node, depth, application, true));
  return true;
}

}  // namespace voxl::platform::atspi
