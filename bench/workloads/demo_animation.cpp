// A small animated X11 program for trying voxl out: colour bars, a bouncing
// square and a sweeping line, redrawn at 60 frames per second in one
// full-screen window. Only what moved is redrawn, as real programs do.
//
//   voxl-demo [--fps N]      (draws on $DISPLAY until killed)
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <xcb/xcb.h>

#include "animation_helpers.h"
#include "box_painter.h"

namespace {

using voxl::bench::add_ns;
using voxl::bench::Box;
using voxl::bench::BoxPainter;
using voxl::bench::hue;

}  // namespace

int main(int argc, char** argv) {
  int fps = 60;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--fps") == 0 && i + 1 < argc) fps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: voxl-demo [--fps N]\n");
      return 2;
    }
  }
  if (fps < 1 || fps > 240) {
    std::fprintf(stderr, "voxl-demo: --fps must be 1 to 240\n");
    return 2;
  }
  xcb_connection_t* c = xcb_connect(nullptr, nullptr);
  if (xcb_connection_has_error(c)) {
    std::fprintf(stderr, "voxl-demo: cannot open the display (is DISPLAY set?)\n");
    return 1;
  }
  xcb_screen_t* s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
  const int W = s->width_in_pixels, H = s->height_in_pixels;
  const xcb_window_t win = xcb_generate_id(c);
  const uint32_t values[] = {0x202428, 1};
  xcb_create_window(c, XCB_COPY_FROM_PARENT, win, s->root, 0, 0, uint16_t(W), uint16_t(H), 0,
                    XCB_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual,
                    XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
  xcb_map_window(c, win);
  BoxPainter p(c, win);

  const int bars = 8, bar_h = H / 6;
  const Box square_area{0, bar_h, W, H - 2 * bar_h};
  const int side = std::max(16, H / 8);
  int x = side, y = square_area.y + side, dx = W / 160 + 1, dy = H / 200 + 1;
  Box last_square{x, y, side, side};
  int line_x = 0;
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (int frame = 0;; ++frame) {
    // Bars shift hue slowly: one strip along the top changes every frame.
    for (int i = 0; i < bars; ++i)
      p.fill({i * W / bars, 0, W / bars + 1, bar_h}, hue(frame * 4 + i * 192));
    p.fill(last_square, 0x202428);
    x += dx;
    y += dy;
    if (x < 0 || x + side > W) dx = -dx, x += 2 * dx;
    if (y < square_area.y || y + side > square_area.y + square_area.h) dy = -dy, y += 2 * dy;
    last_square = {x, y, side, side};
    p.fill(last_square, 0xf0f0f0);
    p.fill({line_x, H - bar_h, 4, bar_h}, 0x202428);
    line_x = (line_x + 6) % W;
    p.fill({line_x, H - bar_h, 4, bar_h}, 0x40c0ff);
    xcb_flush(c);
    if (xcb_connection_has_error(c)) return 0;  // the display went away
    add_ns(next, 1000000000L / fps);
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
  }
}
