// Injects keyboard and pointer input into the desktop. Platform-neutral: the
// X11 implementation (XTest) lives in input/x11; other platforms add theirs
// beside it. Used by viewer sessions (through ViewerInput) and by anything
// else that drives the desktop, e.g. an agent endpoint.
//
// Threads: one instance per desktop, created and used on the loop thread.
// Blocking: calls send requests to the display server; the key calls may
// make one round trip (keymap lookup or change), none waits for the user.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "base/geometry.h"

namespace voxl::input {

enum class InputStatus {
  kOk,
  kUnknownKey,      // no keysym for that name or character
  kNoSpareKeycode,  // the keysym is not in the keymap and no keycode is free
  kFailed,          // the display connection failed
};

// Pointer buttons in X11 numbering, which the other platforms map from:
// 1 left, 2 middle, 3 right, 4/5 wheel up/down, 6/7 wheel left/right,
// 8 back, 9 forward.
inline constexpr int kButtonLeft = 1;
inline constexpr int kButtonMiddle = 2;
inline constexpr int kButtonRight = 3;
inline constexpr int kButtonBack = 8;
inline constexpr int kButtonForward = 9;

class InputInjector {
 public:
  virtual ~InputInjector() = default;

  // Presses or releases the key that produces `keysym` (X11 keysym values,
  // also used as the neutral key code on other platforms). A keysym missing
  // from the keymap is bound to a spare keycode for as long as it is needed.
  virtual InputStatus key(uint32_t keysym, bool down) = 0;
  // Types UTF-8 text character by character (press and release each);
  // "\n" is Return and "\t" is Tab. Stops at the first character it cannot type.
  virtual InputStatus type_text(std::string_view utf8) = 0;

  // Absolute pointer position in desktop pixels; clamped to the desktop.
  virtual void move(int x, int y) = 0;
  // Button `n` (see kButton*), pressed or released at the current position.
  virtual void button(int n, bool down) = 0;
  // Whole wheel notches: positive dy scrolls down, positive dx right.
  virtual void scroll_notches(int dx, int dy) = 0;

  // The desktop's size in pixels (for clamping and for callers that map).
  virtual Size desktop_size() const = 0;
  // Whether Caps Lock / Num Lock are on in the desktop.
  virtual bool caps_lock() = 0;
  virtual bool num_lock() = 0;
  // Where the pointer is now, in desktop pixels (the coordinates move()
  // takes); nullopt when it cannot be told (the desktop is gone, or the
  // pointer is on another screen). One round trip to the desktop.
  virtual std::optional<Point> pointer_position() = 0;

  // The connection to the desktop is gone for good (the X server went
  // away): every call from now on does nothing. A RecoveringInjector
  // (recovering_injector.h) makes a new one.
  virtual bool failed() const = 0;
};

}  // namespace voxl::input
