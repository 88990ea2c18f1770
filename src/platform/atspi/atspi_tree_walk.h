// Reads a part of the accessibility tree into an A11ySnapshot: from the
// roots given, each node's name, role, states, bounds, actions and value,
// and its children, level by level, every question to every node in flight
// at once (CallBatch), within the limits' depth, node count and deadline.
//
// Threads: the thread that owns the batch's connection.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "platform/accessibility.h"
#include "platform/atspi/app_cache.h"
#include "platform/atspi/call_batch.h"

namespace voxl::platform::atspi {

class TreeWalk {
 public:
  // Text read from a text element at most (characters).
  static constexpr int kMaxText = 2000;
  // Accessible actions listed per element at most.
  static constexpr size_t kMaxActions = 16;

  TreeWalk(CallBatch& batch, const A11yLimits& limits, A11ySnapshot& out);
  TreeWalk(const TreeWalk&) = delete;
  TreeWalk& operator=(const TreeWalk&) = delete;

  // A node to read, with its subtree unless `children` is false; its
  // application's name is `application`. Before batch.run().
  void add_root(const BusObject& o, const std::string& application, bool children = true);
  // The applications' caches (app_cache.h) to read elements from where
  // they hold them, and their toolkits; they must outlive the walk.
  // Before add_root().
  void use_caches(const AppFacts* facts) { apps_ = facts; }

 private:
  struct Facts {
    BusObject object;
    bool children = true;
    bool role_known = false;
    bool interfaces_known = false;  // only from the application's cache
    bool states_known = false;
    bool properties_known = false;  // its name, description and child count
    uint32_t role = 0;
    std::vector<std::string> interfaces;
  };
  // The own names of the actions of elements whose GetActions read alike.
  struct ActionNames {
    std::vector<std::string> own;
    size_t left = 0;            // GetName calls still unanswered
    std::vector<int> waiting;   // the nodes to give them to
  };
  int add(const BusObject& o, int parent, int depth, const std::string& application, bool children);
  void ask(int node);
  // From the application's cache, when it holds the node; false if not.
  bool from_cache(int node);
  // Once its role, states and properties are known: its bounds, actions
  // and value.
  void on_facts(int node);
  void on_children(int node, sd_bus_message* reply);
  // Its actions' own names for the names GetActions gave.
  void own_action_names(int node);
  // Its text (the Text interface), at most kMaxText characters, as its value.
  void read_text(int node);
  // The toolkit of the application (a connection name), "" when unknown.
  std::string_view toolkit_of(const std::string& application) const;
  // Adds a child of `node` unless a limit says no; false once one has.
  bool add_child(int node, const BusObject& child);
  // Its Accessible properties (name, description); its child count, or -1
  // when the answer did not say.
  int read_properties(int node, sd_bus_message* reply);
  // Whether it has the interface, as far as is known.
  bool has(int node, const char* interface) const;
  // Whether it has the interface or its interfaces are not known.
  bool may_have(int node, const char* interface) const;

  CallBatch& batch_;
  A11yLimits limits_;
  A11ySnapshot& out_;
  std::vector<Facts> facts_;  // parallel to out_.nodes
  const AppFacts* apps_ = nullptr;
  // By application and GetActions' names.
  std::map<std::string, ActionNames> action_names_;
};

}  // namespace voxl::platform::atspi
