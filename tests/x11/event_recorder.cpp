#include "event_recorder.h"

#include <poll.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace voxl::testing {

namespace {

void sync(xcb_connection_t* c) { std::free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr)); }

}  // namespace

std::string InputEvent::describe() const {
  char buf[96];
  switch (kind) {
    case Kind::kKeyPress:
    case Kind::kKeyRelease:
      std::snprintf(buf, sizeof buf, "key %s 0x%x", kind == Kind::kKeyPress ? "down" : "up", keysym);
      break;
    default:
      std::snprintf(buf, sizeof buf, "button %s %d %d %d", kind == Kind::kButtonPress ? "down" : "up", button,
                    root_x, root_y);
  }
  return buf;
}

EventRecorder::EventRecorder(const std::string& display, const Rect& area) {
  c_ = xcb_connect(display.c_str(), nullptr);
  if (xcb_connection_has_error(c_)) {
    xcb_disconnect(c_);
    throw std::runtime_error("event recorder cannot connect to " + display);
  }
  const xcb_setup_t* setup = xcb_get_setup(c_);
  min_keycode_ = setup->min_keycode;
  xcb_screen_t* screen = xcb_setup_roots_iterator(setup).data;
  load_keymap();
  win_ = xcb_generate_id(c_);
  const uint32_t values[] = {screen->white_pixel, 1,
                             XCB_EVENT_MASK_KEY_PRESS | XCB_EVENT_MASK_KEY_RELEASE | XCB_EVENT_MASK_BUTTON_PRESS |
                                 XCB_EVENT_MASK_BUTTON_RELEASE | XCB_EVENT_MASK_STRUCTURE_NOTIFY};
  xcb_create_window(c_, XCB_COPY_FROM_PARENT, win_, screen->root, int16_t(area.x), int16_t(area.y),
                    uint16_t(area.width), uint16_t(area.height), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                    screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, values);
  xcb_map_window(c_, win_);
  sync(c_);
  xcb_set_input_focus(c_, XCB_INPUT_FOCUS_POINTER_ROOT, win_, XCB_CURRENT_TIME);
  sync(c_);
}

EventRecorder::~EventRecorder() { xcb_disconnect(c_); }

void EventRecorder::load_keymap() {
  const xcb_setup_t* setup = xcb_get_setup(c_);
  const int count = setup->max_keycode - setup->min_keycode + 1;
  auto* r = xcb_get_keyboard_mapping_reply(c_, xcb_get_keyboard_mapping(c_, setup->min_keycode, uint8_t(count)), nullptr);
  if (!r) return;
  per_ = r->keysyms_per_keycode;
  const xcb_keysym_t* syms = xcb_get_keyboard_mapping_keysyms(r);
  keymap_.assign(syms, syms + xcb_get_keyboard_mapping_keysyms_length(r));
  std::free(r);
}

uint32_t EventRecorder::keysym_at(int keycode, int col) const {
  const size_t i = size_t(keycode - min_keycode_) * size_t(per_) + size_t(col);
  return col < per_ && i < keymap_.size() ? keymap_[i] : 0;
}

void EventRecorder::handle(xcb_generic_event_t* ev) {
  switch (ev->response_type & 0x7f) {
    case XCB_KEY_PRESS:
    case XCB_KEY_RELEASE: {
      const auto* k = reinterpret_cast<xcb_key_press_event_t*>(ev);
      InputEvent e{(ev->response_type & 0x7f) == XCB_KEY_PRESS ? InputEvent::Kind::kKeyPress
                                                               : InputEvent::Kind::kKeyRelease};
      e.keycode = k->detail;
      e.state = k->state;
      e.root_x = k->root_x;
      e.root_y = k->root_y;
      // Shift picks the second column, as Xlib does when it is not empty.
      const uint32_t shifted = keysym_at(k->detail, 1);
      e.keysym = (k->state & XCB_MOD_MASK_SHIFT) && shifted ? shifted : keysym_at(k->detail, 0);
      events_.push_back(e);
      break;
    }
    case XCB_BUTTON_PRESS:
    case XCB_BUTTON_RELEASE: {
      const auto* b = reinterpret_cast<xcb_button_press_event_t*>(ev);
      InputEvent e{(ev->response_type & 0x7f) == XCB_BUTTON_PRESS ? InputEvent::Kind::kButtonPress
                                                                  : InputEvent::Kind::kButtonRelease};
      e.button = b->detail;
      e.state = b->state;
      e.root_x = b->root_x;
      e.root_y = b->root_y;
      events_.push_back(e);
      break;
    }
    case XCB_MAPPING_NOTIFY:
      load_keymap();
      break;
    default:
      break;
  }
}

void EventRecorder::poll() {
  while (xcb_generic_event_t* ev = xcb_poll_for_event(c_)) {
    handle(ev);
    std::free(ev);
  }
}

bool EventRecorder::wait_until(const std::function<bool(const std::vector<InputEvent>&)>& done,
                               std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    poll();
    if (done(events_)) return true;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || xcb_connection_has_error(c_)) return false;
    pollfd p{fd(), POLLIN, 0};
    ::poll(&p, 1, int(left.count()));
  }
}

std::vector<uint32_t> pressed_keysyms(const std::vector<InputEvent>& events) {
  std::vector<uint32_t> out;
  for (const auto& e : events)
    if (e.kind == InputEvent::Kind::kKeyPress) out.push_back(e.keysym);
  return out;
}

}  // namespace voxl::testing
