// voxl-demo: a small X11 program for trying voxl out, the one scripts/run
// shows. What is typed appears as text, a drag draws on the canvas, the
// clipboard's text is shown (and "Copy" puts the typed text on it), a
// button plays a tone on PulseAudio's default sink, and a block moves
// along the top with a frame counter at 60 frames per second.
//
//   voxl-demo [--fps N]      (runs on $DISPLAY until the display goes away)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include <xcb/xcb.h>

#include "demo_app.h"

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
    xcb_disconnect(c);
    return 1;
  }
  int status = 1;
  try {
    voxl::demo::DemoApp app(c, fps);
    status = app.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voxl-demo: %s\n", e.what());
  }
  xcb_disconnect(c);
  return status;
}
