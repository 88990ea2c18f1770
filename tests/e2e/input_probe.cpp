// voxl-e2e-input-probe: an X client for the browser tests that covers the
// screen with a window holding the keyboard focus and prints every key and
// button event it receives, one per line ("key down 0x61", "button down 1
// 301 201"), after a first "ready" line. Exits when its stdin closes. With
// --flash it also paints the screen black and white by turns at each key
// press, for timing a key press to the changed picture (bench/browser).
//
//   voxl-e2e-input-probe --display=:N [--flash]
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include <xcb/xcb.h>

#include "event_recorder.h"

int main(int argc, char** argv) {
  std::string display;
  bool flash = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--display=", 10) == 0) display = argv[i] + 10;
    if (std::strcmp(argv[i], "--flash") == 0) flash = true;
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
      }
      std::fflush(stdout);
      pollfd fds[2] = {{rec.fd(), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) return 1;
      if (fds[1].revents) {
        char buf[256];
        if (read(STDIN_FILENO, buf, sizeof buf) <= 0) return 0;
      }
      if (fds[0].revents & (POLLERR | POLLHUP)) return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voxl-e2e-input-probe: %s\n", e.what());
    return 1;
  }
}
