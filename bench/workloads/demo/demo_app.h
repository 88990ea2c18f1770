// voxl-demo's window and event loop. One full-screen window that follows
// the root window's size (RandR resizes from voxl arrive as the root's
// ConfigureNotify), with a keyboard box, a clipboard box, a tone button and
// a canvas, and a moving block with a frame counter redrawn at `fps`. The
// loop sleeps in poll() on the X connection and the frame timer; each
// frame redraws only the counter and the block, and an input event only
// the part it changed.
//
// Threads: construct, run and destroy on one thread (the X thread); the
// tone player runs a worker of its own. Borrows the connection (the caller
// disconnects it after destroying the app); owns the window and
// everything drawn in it.
#pragma once

#include <xcb/xcb.h>

#include "canvas.h"
#include "clipboard_link.h"
#include "demo_screen.h"
#include "frame_clock.h"
#include "keyboard_map.h"
#include "tone_player.h"
#include "typed_text.h"

namespace voxl::demo {

class DemoApp {
 public:
  // Maps the window on the connection's first screen. Throws
  // std::runtime_error when the frame timer cannot be made.
  DemoApp(xcb_connection_t* c, int fps);
  ~DemoApp();
  DemoApp(const DemoApp&) = delete;
  DemoApp& operator=(const DemoApp&) = delete;

  // Runs until the X connection is lost; returns 0 then, 1 when waiting
  // itself fails.
  int run();

 private:
  void on_event(const xcb_generic_event_t* ev);
  void on_key(const xcb_key_press_event_t* ev);
  void on_press(const xcb_button_press_event_t* ev);
  void on_release(const xcb_button_release_event_t* ev);
  void on_motion(const xcb_motion_notify_event_t* ev);
  void on_root_size(int width, int height);
  void activate(Button b, xcb_timestamp_t time);
  void draw_all();
  void draw_button(Button b);
  void draw_tone();

  xcb_connection_t* c_;
  xcb_screen_t* screen_;
  xcb_window_t window_;
  KeyboardMap keys_;
  TypedText typed_;
  DemoScreen view_;
  Canvas canvas_;
  ClipboardLink clipboard_;
  TonePlayer tone_;
  TonePlayer::Status shown_tone_;
  FrameClock clock_;
  Button pressed_ = Button::kNone;
};

}  // namespace voxl::demo
