// The body of POST /input: a JSON list of pointer and keyboard actions
// ({"actions":[...]} or one action object), checked as a whole before any
// of it reaches the desktop, then played through an InputInjector.
// Parsing is pure; running calls only the injector. Loop thread (the
// injector's); nothing here blocks beyond what the injector does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/geometry.h"
#include "input/input_injector.h"
#include "input/picture_mapping.h"

namespace voxl::endpoints {

struct InputAction {
  // kButton presses or releases `button` alone (a drag made of separate
  // requests); the others press and release what they press.
  enum class Type { kMove, kClick, kDrag, kScroll, kKey, kType, kButton };
  Type type = Type::kMove;
  std::string name;             // "actions[2]" (or "" for a lone object), for errors
  bool positioned = false;      // click and scroll may use the pointer where it is
  int x = 0, y = 0;             // move, click, scroll; a drag's start
  int to_x = 0, to_y = 0;       // a drag's end
  int button = input::kButtonLeft;
  int count = 1;                // clicks
  int notches_x = 0, notches_y = 0;  // scroll, positive right and down
  std::vector<uint32_t> keys;   // a combo, pressed in order, released in reverse
  std::string text;             // UTF-8 to type
  bool down = true;             // kButton: press (else release)
  // A drag through these points (the first is x, y; the last to_x, to_y);
  // empty: a straight drag from x, y to to_x, to_y.
  std::vector<Point> path;
  // Keys held around a move, click, drag or scroll (shift-click), pressed
  // in order before it and released in reverse after it.
  std::vector<uint32_t> modifiers;
};

struct ActionError {
  std::string parameter;  // "actions[2].x"
  std::string message;    // "actions[2].x: outside the 640x480 desktop"

  // Names `field` and what is wrong with it; false, for a parser's
  // `return fail(...)`.
  bool set(const std::string& field, const std::string& what) {
    parameter = field;
    message = field + ": " + what;
    return false;
  }
};

inline constexpr size_t kMaxInputActions = 256;
inline constexpr int kMaxClickCount = 10;
inline constexpr int kMaxScrollNotches = 100;
inline constexpr size_t kMaxTypedChars = 4096;  // per request

// Parses and checks everything: coordinates inside `desktop`, known buttons
// and key names, typeable characters, no unknown fields. Pixel scrolls
// become notches at `px_per_notch`. nullopt with `error` naming the field.
std::optional<std::vector<InputAction>> parse_input_actions(std::string_view body, Size desktop, double px_per_notch,
                                                            ActionError& error);

// Maps every position (a move, a positioned click or scroll, both ends of
// a drag) from the picture's coordinates to the desktop's, through the one
// mapping viewers' input uses.
void map_input_actions(std::vector<InputAction>& actions, const input::PictureMapping& picture);

// Moves every position through `map` (a scaled picture's coordinates to
// the picture's, before map_input_actions).
template <typename Map>
void remap_input_actions(std::vector<InputAction>& actions, const Map& map) {
  for (InputAction& a : actions) {
    if (!a.positioned) continue;
    const Point p = map(a.x, a.y);
    a.x = p.x;
    a.y = p.y;
    if (a.type == InputAction::Type::kDrag) {
      const Point to = map(a.to_x, a.to_y);
      a.to_x = to.x;
      a.to_y = to.y;
    }
    for (Point& q : a.path) q = map(q.x, q.y);
  }
}

struct RunOutcome {
  input::InputStatus status = input::InputStatus::kOk;
  size_t done = 0;  // actions fully played
};

// Plays `actions` in order and stops at the first one the injector cannot
// do. Keys of a combo are released in reverse order, and a drag's button
// is released, also when a later step fails: nothing stays held.
RunOutcome run_input_actions(const std::vector<InputAction>& actions, input::InputInjector& injector);

}  // namespace voxl::endpoints
