// voxl-e2e-draw: shows a filled rectangle on an X display, for the browser
// tests.
//
//   voxl-e2e-draw --display=:N --rect=X,Y,W,H --color=RRGGBB [--checker=N]
//
// Maps an override-redirect window (no window manager needed) with that
// background, then prints "ready" on stdout once the server has it. With
// --checker=N the window is a checkerboard of N-pixel cells instead, the
// colour and black, starting with the colour at its top-left corner. Each line
// "color RRGGBB" on stdin repaints it and is answered with "ready" again. Exits
// when stdin closes, on SIGTERM, or when the X server goes away.
#include <poll.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "voxl-e2e-draw: %s\n", why.c_str());
  std::exit(2);
}

bool parse_color(const std::string& s, uint8_t rgb[3]) {
  std::string hex = s;
  if (!hex.empty() && hex[0] == '#') hex.erase(0, 1);
  if (hex.size() != 6) return false;
  for (int i = 0; i < 3; ++i) {
    char* end = nullptr;
    const std::string part = hex.substr(size_t(i) * 2, 2);
    const long v = std::strtol(part.c_str(), &end, 16);
    if (*end != '\0') return false;
    rgb[i] = uint8_t(v);
  }
  return true;
}

bool parse_rect(const std::string& s, int out[4]) {
  return std::sscanf(s.c_str(), "%d,%d,%d,%d", &out[0], &out[1], &out[2], &out[3]) == 4 && out[2] > 0 &&
         out[3] > 0;
}

uint32_t alloc_pixel(xcb_connection_t* c, xcb_colormap_t cmap, const uint8_t rgb[3]) {
  auto cookie = xcb_alloc_color(c, cmap, uint16_t(rgb[0] * 257), uint16_t(rgb[1] * 257), uint16_t(rgb[2] * 257));
  xcb_alloc_color_reply_t* r = xcb_alloc_color_reply(c, cookie, nullptr);
  if (!r) die("cannot allocate the colour");
  const uint32_t pixel = r->pixel;
  std::free(r);
  return pixel;
}

// A round trip: once it returns, the server has handled every earlier request.
void sync(xcb_connection_t* c) {
  std::free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr));
  if (xcb_connection_has_error(c)) die("lost the X connection");
}

}  // namespace

int main(int argc, char** argv) {
  std::string display;
  int rect[4] = {0, 0, 0, 0};
  uint8_t rgb[3] = {0, 0, 0};
  bool have_rect = false;
  bool have_color = false;
  int checker = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--display=", 0) == 0) {
      display = a.substr(10);
    } else if (a.rfind("--rect=", 0) == 0) {
      if (!parse_rect(a.substr(7), rect)) die("--rect wants X,Y,W,H with W,H > 0");
      have_rect = true;
    } else if (a.rfind("--color=", 0) == 0) {
      if (!parse_color(a.substr(8), rgb)) die("--color wants RRGGBB");
      have_color = true;
    } else if (a.rfind("--checker=", 0) == 0) {
      checker = std::atoi(a.c_str() + 10);
      if (checker <= 0 || checker > 1024) die("--checker wants a cell size of 1 to 1024 pixels");
    } else {
      die("unknown argument " + a);
    }
  }
  if (!have_rect || !have_color) die("usage: voxl-e2e-draw [--display=:N] --rect=X,Y,W,H --color=RRGGBB");

  xcb_connection_t* c = xcb_connect(display.empty() ? nullptr : display.c_str(), nullptr);
  if (xcb_connection_has_error(c)) die("cannot open display " + display);
  xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;

  const xcb_window_t win = xcb_generate_id(c);
  const uint32_t mask = XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT;
  const uint32_t values[] = {alloc_pixel(c, screen->default_colormap, rgb), 1};
  xcb_create_window(c, XCB_COPY_FROM_PARENT, win, screen->root, int16_t(rect[0]), int16_t(rect[1]),
                    uint16_t(rect[2]), uint16_t(rect[3]), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                    screen->root_visual, mask, values);
  if (checker > 0) {
    // A 2x2-cell tile as the background: the server repeats it from the
    // window's origin.
    const xcb_pixmap_t tile = xcb_generate_id(c);
    const auto side = uint16_t(2 * checker);
    xcb_create_pixmap(c, screen->root_depth, tile, win, side, side);
    const xcb_gcontext_t gc = xcb_generate_id(c);
    xcb_create_gc(c, gc, tile, XCB_GC_FOREGROUND, &screen->black_pixel);
    const xcb_rectangle_t all{0, 0, side, side};
    xcb_poly_fill_rectangle(c, tile, gc, 1, &all);
    xcb_change_gc(c, gc, XCB_GC_FOREGROUND, &values[0]);
    const auto n = uint16_t(checker);
    const xcb_rectangle_t cells[2] = {{0, 0, n, n}, {int16_t(checker), int16_t(checker), n, n}};
    xcb_poly_fill_rectangle(c, tile, gc, 2, cells);
    xcb_change_window_attributes(c, win, XCB_CW_BACK_PIXMAP, &tile);
    xcb_free_gc(c, gc);
    xcb_free_pixmap(c, tile);
  }
  xcb_map_window(c, win);
  sync(c);
  std::printf("ready\n");
  std::fflush(stdout);

  std::string line;
  pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {xcb_get_file_descriptor(c), POLLIN, 0}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) continue;
    if (fds[1].revents) {
      while (xcb_generic_event_t* ev = xcb_poll_for_event(c)) std::free(ev);
      if (xcb_connection_has_error(c)) return 0;  // the X server is gone
    }
    if (!fds[0].revents) continue;
    char buf[256];
    const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0) break;
    line.append(buf, size_t(n));
    size_t nl;
    while ((nl = line.find('\n')) != std::string::npos) {
      const std::string cmd = line.substr(0, nl);
      line.erase(0, nl + 1);
      if (cmd.rfind("color ", 0) != 0 || !parse_color(cmd.substr(6), rgb)) {
        std::fprintf(stderr, "voxl-e2e-draw: ignoring '%s'\n", cmd.c_str());
        continue;
      }
      const uint32_t pixel = alloc_pixel(c, screen->default_colormap, rgb);
      xcb_change_window_attributes(c, win, XCB_CW_BACK_PIXEL, &pixel);
      xcb_clear_area(c, 0, win, 0, 0, 0, 0);  // repaint all of it with the new background
      sync(c);
      std::printf("ready\n");
      std::fflush(stdout);
    }
  }
  xcb_disconnect(c);
  return 0;
}
