// voxl-e2e-input-probe: an X client for the browser tests that covers the
// screen with a window holding the keyboard focus and prints every key and
// button event it receives, one per line ("key down 0x61", "button down 1
// 301 201"), after a first "ready" line. Exits when its stdin closes. With
// --flash it also paints the screen black and white by turns at each key
// press, for timing a key press to the changed picture (bench/browser).
// With --clipboard it also prints "clipboard owner 0x<window>" each time the
// CLIPBOARD selection changes hands (XFixes; 0x0: nobody), from before its
// "ready" line on, so a test knows when an application holds the clipboard.
// With --mark-clicks it paints a 24x24 red square centred on each button
// press, so a screenshot shows where a click landed; --mark-delay=MS makes
// it a slow application that paints the mark only MS milliseconds later.
//
//   voxl-e2e-input-probe --display=:N [--flash] [--clipboard] [--mark-clicks [--mark-delay=MS]]
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include <xcb/xcb.h>
#include <xcb/xfixes.h>

#include "event_recorder.h"

namespace {

// Asks for XFixes owner-change events of CLIPBOARD on `c`; the event code.
uint8_t watch_clipboard(xcb_connection_t* c, xcb_window_t root, xcb_atom_t& clipboard) {
  const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c, &xcb_xfixes_id);
  if (!ext || !ext->present) throw std::runtime_error("the display lacks XFIXES");
  std::free(xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 5, 0), nullptr));
  auto* atom = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, 9, "CLIPBOARD"), nullptr);
  if (!atom) throw std::runtime_error("cannot intern CLIPBOARD");
  clipboard = atom->atom;
  std::free(atom);
  // Checked: in effect once it returns, before "ready".
  xcb_generic_error_t* err = xcb_request_check(
      c, xcb_xfixes_select_selection_input_checked(c, root, clipboard,
                                                   XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER));
  if (err) {
    std::free(err);
    throw std::runtime_error("cannot watch the clipboard");
  }
  return uint8_t(ext->first_event + XCB_XFIXES_SELECTION_NOTIFY);
}

}  // namespace

int main(int argc, char** argv) {
  std::string display;
  bool flash = false;
  bool clipboard = false;
  bool mark_clicks = false;
  int mark_delay_ms = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--mark-clicks") == 0) mark_clicks = true;
    if (std::strncmp(argv[i], "--mark-delay=", 13) == 0) mark_delay_ms = std::atoi(argv[i] + 13);
    if (std::strncmp(argv[i], "--display=", 10) == 0) display = argv[i] + 10;
    if (std::strcmp(argv[i], "--flash") == 0) flash = true;
    if (std::strcmp(argv[i], "--clipboard") == 0) clipboard = true;
  }
  if (display.empty()) {
    std::fprintf(stderr, "usage: %s --display=:N\n", argv[0]);
    return 2;
  }
  try {
    xcb_connection_t* probe = xcb_connect(display.c_str(), nullptr);
    if (xcb_connection_has_error(probe)) throw std::runtime_error("cannot connect to " + display);
    const xcb_screen_t* s = xcb_setup_roots_iterator(xcb_get_setup(probe)).data;
    const voxl::Rect area{0, 0, s->width_in_pixels, s->height_in_pixels};
    xcb_gcontext_t gc = xcb_generate_id(probe);
    xcb_create_gc(probe, gc, s->root, 0, nullptr);
    uint32_t flashes = 0;
    xcb_atom_t clipboard_atom = XCB_NONE;
    const uint8_t owner_event = clipboard ? watch_clipboard(probe, s->root, clipboard_atom) : 0;

    voxl::testing::EventRecorder rec(display, area);
    std::printf("ready\n");
    std::fflush(stdout);
    size_t printed = 0;
    for (;;) {
      rec.poll();
      for (; printed < rec.events().size(); ++printed) {
        const auto& e = rec.events()[printed];
        std::printf("%s\n", e.describe().c_str());
        if (flash && e.kind == voxl::testing::InputEvent::Kind::kKeyPress) {
          // The probe's window covers the screen: paint it, from a second
          // connection (the recorder's only listens).
          const uint32_t color = (++flashes & 1) ? 0x000000 : 0xffffff;
          xcb_change_gc(probe, gc, XCB_GC_FOREGROUND, &color);
          const xcb_rectangle_t all{0, 0, uint16_t(area.width), uint16_t(area.height)};
          xcb_poly_fill_rectangle(probe, rec.window(), gc, 1, &all);
          xcb_flush(probe);
        }
        if (mark_clicks && e.kind == voxl::testing::InputEvent::Kind::kButtonPress) {
          if (mark_delay_ms > 0) ::usleep(useconds_t(mark_delay_ms) * 1000);
          const uint32_t red = 0xff0000;
          xcb_change_gc(probe, gc, XCB_GC_FOREGROUND, &red);
          const xcb_rectangle_t mark{int16_t(e.root_x - 12), int16_t(e.root_y - 12), 24, 24};
          xcb_poly_fill_rectangle(probe, rec.window(), gc, 1, &mark);
          xcb_flush(probe);
        }
      }
      // Everything queued on the second connection, read from its socket
      // or not, so that poll() below waits only for what is still to come.
      while (xcb_generic_event_t* ev = xcb_poll_for_event(probe)) {
        if (clipboard && (ev->response_type & 0x7f) == owner_event) {
          const auto* n = reinterpret_cast<const xcb_xfixes_selection_notify_event_t*>(ev);
          if (n->selection == clipboard_atom) std::printf("clipboard owner 0x%x\n", n->owner);
        }
        std::free(ev);
      }
      if (xcb_connection_has_error(probe)) return 1;
      std::fflush(stdout);
      pollfd fds[3] = {{rec.fd(), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}, {xcb_get_file_descriptor(probe), POLLIN, 0}};
      if (::poll(fds, 3, -1) < 0) return 1;
      if (fds[1].revents) {
        char buf[256];
        if (read(STDIN_FILENO, buf, sizeof buf) <= 0) return 0;
      }
      if ((fds[0].revents | fds[2].revents) & (POLLERR | POLLHUP)) return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voxl-e2e-input-probe: %s\n", e.what());
    return 1;
  }
}
