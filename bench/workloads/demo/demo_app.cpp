#include "demo_app.h"

#include <poll.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "demo_style.h"
#include "keysym_text.h"

namespace voxl::demo {

namespace {

constexpr size_t kTypedChars = 2000;
constexpr size_t kClipboardBytes = 64 * 1024;
constexpr size_t kClipboardChars = 4000;
constexpr int kToneHz = 440;
constexpr std::chrono::milliseconds kToneLength{1000};

// The cursor font's left_ptr (XC_left_ptr), rather than the root's X.
constexpr uint16_t kLeftPointer = 68;

void set_string(xcb_connection_t* c, xcb_window_t w, xcb_atom_t property, const char* value, size_t length) {
  xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, property, XCB_ATOM_STRING, 8, uint32_t(length), value);
}

xcb_window_t make_window(xcb_connection_t* c, const xcb_screen_t* s) {
  const xcb_window_t w = xcb_generate_id(c);
  const uint32_t values[] = {style::kBackground, 1,
                             XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_KEY_PRESS | XCB_EVENT_MASK_BUTTON_PRESS |
                                 XCB_EVENT_MASK_BUTTON_RELEASE | XCB_EVENT_MASK_BUTTON_MOTION};
  xcb_create_window(c, XCB_COPY_FROM_PARENT, w, s->root, 0, 0, s->width_in_pixels, s->height_in_pixels, 0,
                    XCB_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual,
                    XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, values);
  set_string(c, w, XCB_ATOM_WM_NAME, "voxl demo", 9);
  set_string(c, w, XCB_ATOM_WM_CLASS, "voxl-demo\0voxl-demo", 20);

  const xcb_font_t cursor_font = xcb_generate_id(c);
  xcb_open_font(c, cursor_font, 6, "cursor");
  const xcb_cursor_t pointer = xcb_generate_id(c);
  xcb_create_glyph_cursor(c, pointer, cursor_font, cursor_font, kLeftPointer, kLeftPointer + 1, 0, 0, 0, 0xffff,
                          0xffff, 0xffff);
  xcb_change_window_attributes(c, w, XCB_CW_CURSOR, &pointer);
  xcb_free_cursor(c, pointer);
  xcb_close_font(c, cursor_font);

  // The root's ConfigureNotify says when RandR gives the screen a new size.
  const uint32_t root_events = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
  xcb_change_window_attributes(c, s->root, XCB_CW_EVENT_MASK, &root_events);
  xcb_map_window(c, w);
  // With no window manager to give it focus, keys would follow the pointer.
  xcb_set_input_focus(c, XCB_INPUT_FOCUS_POINTER_ROOT, w, XCB_CURRENT_TIME);
  return w;
}

}  // namespace

DemoApp::DemoApp(xcb_connection_t* c, int fps)
    : c_(c),
      screen_(xcb_setup_roots_iterator(xcb_get_setup(c)).data),
      window_(make_window(c_, screen_)),
      keys_(c_),
      typed_(kTypedChars),
      view_(c_, window_),
      canvas_(c_, window_, screen_->root_depth),
      clipboard_(c_, window_, kClipboardBytes, kClipboardChars),
      tone_(kToneHz, kToneLength),
      clock_(fps) {
  int width = screen_->width_in_pixels, height = screen_->height_in_pixels;
  if (auto* g = xcb_get_geometry_reply(c_, xcb_get_geometry(c_, screen_->root), nullptr)) {
    width = g->width;
    height = g->height;
    std::free(g);
  }
  on_root_size(width, height);
}

DemoApp::~DemoApp() { xcb_destroy_window(c_, window_); }

int DemoApp::run() {
  pollfd fds[2] = {{xcb_get_file_descriptor(c_), POLLIN, 0}, {clock_.fd(), POLLIN, 0}};
  for (;;) {
    // Everything already read (replies waited for read events too) is
    // handled before sleeping.
    while (xcb_generic_event_t* ev = xcb_poll_for_event(c_)) {
      on_event(ev);
      std::free(ev);
    }
    if (xcb_connection_has_error(c_)) {
      std::fprintf(stderr, "voxl-demo: the display closed the connection\n");
      return 0;
    }
    if (!(tone_.status() == shown_tone_)) draw_tone();
    xcb_flush(c_);
    if (poll(fds, 2, -1) < 0 && errno != EINTR) {
      std::perror("voxl-demo: poll");
      return 1;
    }
    if (fds[1].revents & POLLIN) {
      clock_.tick();
      view_.draw_tick(clock_.frame(), clock_.measured_fps());
    }
  }
}

void DemoApp::on_event(const xcb_generic_event_t* ev) {
  switch (ev->response_type & 0x7f) {
    case 0:  // an error: nothing the demo asks for is worth stopping over
      return;
    case XCB_EXPOSE: {
      const auto* e = reinterpret_cast<const xcb_expose_event_t*>(ev);
      if (e->window == window_ && e->count == 0) draw_all();
      return;
    }
    case XCB_CONFIGURE_NOTIFY: {
      const auto* e = reinterpret_cast<const xcb_configure_notify_event_t*>(ev);
      if (e->window == screen_->root) on_root_size(e->width, e->height);
      return;
    }
    case XCB_MAPPING_NOTIFY: {
      const auto* e = reinterpret_cast<const xcb_mapping_notify_event_t*>(ev);
      if (e->request != XCB_MAPPING_POINTER) keys_.reload();
      return;
    }
    case XCB_KEY_PRESS: return on_key(reinterpret_cast<const xcb_key_press_event_t*>(ev));
    case XCB_BUTTON_PRESS: return on_press(reinterpret_cast<const xcb_button_press_event_t*>(ev));
    case XCB_BUTTON_RELEASE: return on_release(reinterpret_cast<const xcb_button_release_event_t*>(ev));
    case XCB_MOTION_NOTIFY: return on_motion(reinterpret_cast<const xcb_motion_notify_event_t*>(ev));
    default:
      if (clipboard_.handle(ev)) view_.draw_clipboard(clipboard_.view());
      return;
  }
}

void DemoApp::on_root_size(int width, int height) {
  const Layout& now = view_.layout();
  if (width == now.width && height == now.height) return;
  const uint32_t size[] = {uint32_t(width), uint32_t(height)};
  xcb_configure_window(c_, window_, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
  view_.set_layout(layout_for(width, height));
  canvas_.place(view_.layout().canvas);
  draw_all();
}

void DemoApp::on_key(const xcb_key_press_event_t* ev) {
  // Shortcuts (Control, Alt, Super) type nothing.
  if (ev->state & (XCB_MOD_MASK_CONTROL | XCB_MOD_MASK_1 | XCB_MOD_MASK_4)) return;
  const KeyMeaning m = key_meaning(keys_.keysym(ev->detail, ev->state));
  const bool was_empty = typed_.empty();
  switch (m.action) {
    case KeyMeaning::Action::kNone: return;
    case KeyMeaning::Action::kInsert: typed_.insert(m.character); break;
    case KeyMeaning::Action::kBackspace: typed_.backspace(); break;
    case KeyMeaning::Action::kNewline: typed_.newline(); break;
  }
  view_.draw_text_box(typed_);
  if (was_empty != typed_.empty()) draw_button(Button::kCopy);
}

void DemoApp::on_press(const xcb_button_press_event_t* ev) {
  if (ev->detail < 1 || ev->detail > 3) return;  // 4 and up: the wheel
  // A click gives the keyboard to the demo, whoever had it.
  xcb_set_input_focus(c_, XCB_INPUT_FOCUS_POINTER_ROOT, window_, ev->time);
  const Button b = view_.button_at(ev->event_x, ev->event_y);
  if (b != Button::kNone) {
    pressed_ = b;
    draw_button(b);
  } else if (view_.layout().canvas.contains(ev->event_x, ev->event_y)) {
    canvas_.begin(ev->event_x, ev->event_y);
  }
}

void DemoApp::on_motion(const xcb_motion_notify_event_t* ev) {
  if (canvas_.drawing()) canvas_.extend(ev->event_x, ev->event_y);
}

void DemoApp::on_release(const xcb_button_release_event_t* ev) {
  if (ev->detail < 1 || ev->detail > 3) return;
  if (canvas_.drawing()) {
    canvas_.extend(ev->event_x, ev->event_y);
    canvas_.end();
  }
  if (pressed_ == Button::kNone) return;
  const Button b = pressed_;
  pressed_ = Button::kNone;
  draw_button(b);
  // Released elsewhere: not a click.
  if (view_.button_at(ev->event_x, ev->event_y) == b) activate(b, ev->time);
}

void DemoApp::activate(Button b, xcb_timestamp_t time) {
  switch (b) {
    case Button::kCopy:
      if (!typed_.empty()) clipboard_.offer(typed_.text(), time);
      return;
    case Button::kClearText:
      typed_.clear();
      view_.draw_text_box(typed_);
      draw_button(Button::kCopy);
      return;
    case Button::kTone: tone_.play(); return;
    case Button::kClearCanvas: canvas_.clear(); return;
    case Button::kNone: return;
  }
}

void DemoApp::draw_button(Button b) {
  if (b == Button::kTone) return draw_tone();
  view_.draw_button(b, pressed_ == b, b != Button::kCopy || !typed_.empty());
}

void DemoApp::draw_tone() {
  shown_tone_ = tone_.status();
  view_.draw_tone(shown_tone_, pressed_ == Button::kTone, kToneHz);
}

void DemoApp::draw_all() {
  view_.draw_frame();
  view_.draw_text_box(typed_);
  view_.draw_clipboard(clipboard_.view());
  for (Button b : {Button::kCopy, Button::kClearText, Button::kClearCanvas}) draw_button(b);
  draw_tone();
  canvas_.show();
  view_.draw_tick(clock_.frame(), clock_.measured_fps());
}

}  // namespace voxl::demo
