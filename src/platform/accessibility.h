// The desktop's accessibility tree (AT-SPI on Linux): what the windows
// hold as the applications describe it (roles, names, states, where each
// element is), read for agents (/a11y) and acted on through the
// applications' own accessible actions.
//
// Threads: an Accessibility is used by one thread at a time (the agent
// endpoints' accessibility worker), never the loop: every call blocks
// until it is answered or its deadline passes, so a hung application costs
// at most the deadline. Ownership: made by
// DesktopEnvironment::make_accessibility, owned by the caller, destroyed
// before the environment.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/geometry.h"

namespace voxl::platform {

using A11yDeadline = std::chrono::steady_clock::time_point;

// The states an agent asks about, as bits of A11yNode::states.
enum A11yState : uint32_t {
  kA11yFocused = 1u << 0,
  kA11yFocusable = 1u << 1,
  kA11yEnabled = 1u << 2,  // enabled and sensitive: it would react
  kA11yChecked = 1u << 3,
  kA11yCheckable = 1u << 4,
  kA11ySelected = 1u << 5,
  kA11ySelectable = 1u << 6,
  kA11yEditable = 1u << 7,
  kA11yShowing = 1u << 8,  // on screen (showing and visible)
  kA11yActive = 1u << 9,   // the active window
  kA11yExpanded = 1u << 10,
  kA11yExpandable = 1u << 11,
  kA11yPressed = 1u << 12,
  kA11yModal = 1u << 13,
  kA11yMultiLine = 1u << 14,
  kA11yReadOnly = 1u << 15,
  kA11yRequired = 1u << 16,
  kA11yInvalid = 1u << 17,  // its entry is invalid
};

// The states' names as /a11y gives them, in bit order.
inline constexpr const char* kA11yStateNames[] = {
    "focused", "focusable", "enabled",  "checked",   "checkable", "selected",   "selectable", "editable", "showing",
    "active",  "expanded",  "expandable", "pressed", "modal",     "multi_line", "read_only",  "required", "invalid"};

struct A11yNode {
  // Names the node to describe() and act() for as long as it lives in its
  // application (the same node keeps it across snapshots). Opaque.
  std::string ref;
  int parent = -1;  // index in A11ySnapshot::nodes; -1 for a top level
  int depth = 0;
  std::string role;  // "push button", "text", "frame", ...
  std::string name;
  std::string description;
  // The text of a text element or the number of a value element; never
  // the text of a password field (secret).
  std::optional<std::string> value;
  bool secret = false;
  uint32_t states = 0;  // A11yState bits
  // On the desktop, in desktop pixels; nullopt when it has none.
  std::optional<Rect> bounds;
  std::vector<std::string> actions;  // its accessible actions' names
  int child_count = 0;  // as the application counts them (some may be cut)
  std::string application;  // the application's name
};

struct A11ySnapshot {
  std::vector<A11yNode> nodes;  // parents before their children
  // What was cut, for the answer to say so.
  bool depth_cut = false;
  bool count_cut = false;
  bool time_cut = false;
  std::vector<std::string> unanswered;  // applications that did not answer in time
  // The active window's scope: no window said it was active, and the
  // largest one on screen was taken.
  bool window_guessed = false;
};

struct A11yScope {
  enum class Kind {
    kActiveWindow,  // the window with the active state (else the focused one's)
    kDesktop,       // every application's windows
    kNode,          // the subtree of `ref`
  };
  Kind kind = Kind::kActiveWindow;
  std::string ref;
};

struct A11yLimits {
  int max_depth = 40;
  int max_nodes = 3000;
  A11yDeadline deadline;
};

enum class A11yAction { kClick, kFocus, kSetText, kSelect, kScrollIntoView };

struct A11yActed {
  bool done = false;
  // What was done ("the accessible action \"click\""), or why nothing was.
  std::string how;
  // For a click the node has no action for: where its centre is on the
  // desktop, for the caller to click through the input path.
  std::optional<Point> click_at;
  // For set_text on an element that takes no text directly (Chromium's
  // fields): it has the focus now, and the caller selects what it holds
  // and types the text through the input path.
  bool type_instead = false;
  bool gone = false;  // the node no longer exists
};

class Accessibility {
 public:
  virtual ~Accessibility() = default;

  // The tree within `scope`, cut at the limits. Throws std::runtime_error
  // when the accessibility bus cannot be reached.
  virtual A11ySnapshot snapshot(const A11yScope& scope, const A11yLimits& limits) = 0;
  // One node as it is now (its children not listed); nullopt when it is gone.
  virtual std::optional<A11yNode> describe(const std::string& ref, A11yDeadline deadline) = 0;
  // Acts on the node; `text` for kSetText.
  virtual A11yActed act(const std::string& ref, A11yAction action, const std::string& text,
                        A11yDeadline deadline) = 0;
};

}  // namespace voxl::platform
