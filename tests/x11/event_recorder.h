// A test X client that records the input it gets: a mapped window (override
// redirect, so no window manager is needed) that takes the keyboard focus
// and notes every key and button event, with the keysym each key event
// means under the keymap at that moment (following MappingNotify).
// Used by the x11 tests and by the e2e input probe. One thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <xcb/xcb.h>

#include "base/geometry.h"

namespace voxl::testing {

struct InputEvent {
  enum class Kind { kKeyPress, kKeyRelease, kButtonPress, kButtonRelease };
  Kind kind;
  uint32_t keysym = 0;  // key events
  int keycode = 0;
  int button = 0;       // button events
  int root_x = 0;       // pointer position on the root window
  int root_y = 0;
  uint16_t state = 0;   // modifier and button mask before the event
  bool press() const { return kind == Kind::kKeyPress || kind == Kind::kButtonPress; }
  std::string describe() const;
};

class EventRecorder {
 public:
  // Throws std::runtime_error when the display cannot be opened.
  EventRecorder(const std::string& display, const Rect& area);
  ~EventRecorder();
  EventRecorder(const EventRecorder&) = delete;
  EventRecorder& operator=(const EventRecorder&) = delete;

  const std::vector<InputEvent>& events() const { return events_; }
  void clear() { events_.clear(); }
  // Handles events until `done(events())` or `limit` passes; the last answer.
  bool wait_until(const std::function<bool(const std::vector<InputEvent>&)>& done,
                  std::chrono::milliseconds limit = std::chrono::seconds(20));
  // Handles what has arrived, without waiting.
  void poll();
  int fd() const { return xcb_get_file_descriptor(c_); }
  xcb_window_t window() const { return win_; }
  // Keysym of `keycode` in column `col` of the current core keymap.
  uint32_t keysym_at(int keycode, int col) const;

 private:
  void handle(xcb_generic_event_t* ev);
  void load_keymap();

  xcb_connection_t* c_ = nullptr;
  xcb_window_t win_ = 0;
  int min_keycode_ = 8;
  int per_ = 0;
  std::vector<uint32_t> keymap_;
  std::vector<InputEvent> events_;
};

// Keysyms of the key presses, in order.
std::vector<uint32_t> pressed_keysyms(const std::vector<InputEvent>& events);

}  // namespace voxl::testing
