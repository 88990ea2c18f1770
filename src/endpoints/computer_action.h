// POST /computer's body: one action in the schema of Anthropic's computer
// tool ({"action": "left_click", "coordinate": [x, y]}) or of OpenAI's
// computer-use tool ({"type": "click", "button": "left", "x": 1, "y": 2}, or
// a whole computer_call item around it), turned into the /input engine's
// actions and what to do after them: settle, screenshot, report the pointer.
// Everything is checked before anything is played, like /input.
//
// Pure; any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/geometry.h"
#include "endpoints/input_actions.h"

namespace voxl::endpoints {

// kA11y: an action on the accessibility tree (/a11y/act), settled the same way.
enum class ComputerSchema { kAnthropic, kOpenAI, kA11y };

struct ComputerAction {
  ComputerSchema schema = ComputerSchema::kAnthropic;
  std::string name;  // the action as the schema calls it: "left_click", "keypress"
  // Played first. Positions are in the agent's picture (see
  // parse_computer_action's `picture`) until the caller maps them.
  std::vector<InputAction> input;
  // Wait for the screen to settle after the input (every action that may
  // change the screen, and "wait").
  bool settle = false;
  // The action asks for a picture (screenshot, zoom): answered with one
  // whatever the request's screenshot parameter says.
  bool screenshot = false;
  // zoom: this part of the agent's picture, at the desktop's resolution.
  std::optional<Rect> zoom;
  // cursor_position: the answer's point is what was asked for.
  bool cursor = false;
  // wait: its settle gives up after this (Anthropic's duration; 0: the
  // request's settle cap).
  std::chrono::milliseconds wait_cap{0};
  // hold_key: these keys are pressed, held this long, then released.
  std::vector<uint32_t> hold_keys;
  std::chrono::milliseconds hold{0};
};

// The longest hold_key and wait duration an action may ask for.
inline constexpr std::chrono::seconds kMaxActionSeconds{60};

// Parses one action. `picture` is the size of the picture the agent sees
// (scaled, when it asked for scaled screenshots): coordinates must lie on
// it. OpenAI's pixel scrolls become notches at `px_per_notch` (at least
// one notch for any non-zero amount). nullopt with `error` naming the
// field ("coordinate[0]", "keys[1]").
std::optional<ComputerAction> parse_computer_action(std::string_view body, Size picture, double px_per_notch,
                                                    ActionError& error);

}  // namespace voxl::endpoints
