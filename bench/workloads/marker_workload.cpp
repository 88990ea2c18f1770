// The X11 benchmark workloads: content that changes at a steady frame rate,
// with the frame marker (bench/marker) drawn into the top-left corner every
// time anything is drawn, and each counter's draw time appended to a log.
//
//   voxl-bench-workload --mode animation|fullscreen|texture|idle --log FILE [--fps 60] [--cell 16]
//   voxl-bench-workload --mode texture --dump FRAMES --size WxH > frames.bgr0
//
// animation:  colour stripes sweeping through a gradient and bouncing
//             squares, in a centred region two thirds of the screen wide and
//             high (1280x720 on a 1920x1080 screen); the rest stays still.
// fullscreen: the same over the whole screen: every pixel changes every frame.
//             Both draw double-buffered, as toolkits do: a frame's fills go
//             to a pixmap, then one CopyArea per changed area puts it on the
//             window, and the workload waits for the server to have done it.
//             Filled straight onto the window, a frame is some 76 requests
//             in a row, and a capture between two of them (the X server is
//             descheduled in the middle of a frame on a loaded machine) sees
//             it half drawn, the marker painted over by stripes.
// texture:    a full-screen photo-like picture scrolling 3 px a frame under
//             a changing film grain (texture_picture.h): heavy content, well
//             over 10 Mbit/s for x264 at CRF 23 at 1080p. Each frame, marker
//             included, is one MIT-SHM PutImage, so no capture sees it torn.
// idle:       draws the marker once, then nothing moves.
// SIGUSR1 holds the picture still after the frame being drawn (bench/run's
// still measurement); SIGUSR2 starts the motion again.
// --dump:     writes FRAMES texture frames (from counter 1, marker included)
//             as raw BGR0 to stdout, without a display, to feed an encoder.
// Draws on $DISPLAY until killed or the display goes away.
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <xcb/xcb.h>

#include "animation_helpers.h"
#include "box_painter.h"
#include "frame_putter.h"
#include "hold_signals.h"
#include "marker/marker.h"
#include "scene_picture.h"
#include "texture_picture.h"

namespace {

using voxl::bench::add_ns;
using voxl::bench::Box;
using voxl::bench::BoxPainter;

int usage() {
  std::fprintf(stderr,
               "usage: voxl-bench-workload --mode animation|fullscreen|texture|idle --log FILE [--fps N] [--cell PX]\n"
               "       voxl-bench-workload --mode texture --dump FRAMES --size WxH [--cell PX]\n");
  return 2;
}

// The marker for `counter` painted into a frame of 0x00RRGGBB pixels.
void paint_marker(uint32_t* px, int stride, uint32_t counter, int cell) {
  for (const auto& m : voxl::bench::marker_cells(counter, cell))
    for (int y = m.y; y < m.y + m.size; ++y)
      std::fill_n(px + size_t(y) * size_t(stride) + size_t(m.x), m.size, m.light ? 0xffffffu : 0u);
}

int dump_texture(int frames, int w, int h, int cell) {
  voxl::bench::TexturePicture picture(w, h);
  std::vector<uint32_t> px(size_t(w) * size_t(h));
  for (int f = 1; f <= frames; ++f) {
    picture.render(uint32_t(f), px.data(), w);
    paint_marker(px.data(), w, uint32_t(f), cell);
    if (std::fwrite(px.data(), 4, px.size(), stdout) != px.size()) return 1;
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode, log_path;
  int fps = 60, cell = voxl::bench::kDefaultMarkerCell, dump = 0, dump_w = 0, dump_h = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    if (a == "--mode") mode = argv[++i];
    else if (a == "--log") log_path = argv[++i];
    else if (a == "--fps") fps = std::atoi(argv[++i]);
    else if (a == "--cell") cell = std::atoi(argv[++i]);
    else if (a == "--dump") dump = std::atoi(argv[++i]);
    else if (a == "--size") {
      if (std::sscanf(argv[++i], "%dx%d", &dump_w, &dump_h) != 2) return usage();
    } else return usage();
  }
  if (fps < 1 || fps > 240 || cell < 4 || cell > 64) {
    std::fprintf(stderr, "voxl-bench-workload: --fps must be 1-240 and --cell 4-64\n");
    return 2;
  }
  if (dump) {
    if (mode != "texture" || dump < 0 || dump_w < voxl::bench::marker_width(cell) ||
        dump_h < voxl::bench::marker_height(cell) || dump_w > 8192 || dump_h > 8192)
      return usage();
    return dump_texture(dump, dump_w, dump_h, cell);
  }
  if ((mode != "animation" && mode != "fullscreen" && mode != "texture" && mode != "idle") || log_path.empty())
    return usage();
  voxl::bench::HoldSignals hold;  // before any thread: it blocks its signals
  FILE* log = std::fopen(log_path.c_str(), "a");
  if (!log) {
    std::fprintf(stderr, "voxl-bench-workload: cannot open %s: %s\n", log_path.c_str(), std::strerror(errno));
    return 1;
  }
  xcb_connection_t* c = xcb_connect(nullptr, nullptr);
  if (xcb_connection_has_error(c)) {
    std::fprintf(stderr, "voxl-bench-workload: cannot open the display (is DISPLAY set?)\n");
    return 1;
  }
  xcb_screen_t* s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
  const int W = s->width_in_pixels, H = s->height_in_pixels;
  const xcb_window_t win = xcb_generate_id(c);
  const uint32_t values[] = {voxl::bench::ScenePicture::kBackground, 1};
  xcb_create_window(c, XCB_COPY_FROM_PARENT, win, s->root, 0, 0, uint16_t(W), uint16_t(H), 0,
                    XCB_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT,
                    values);
  xcb_map_window(c, win);
  // The back buffer the frames are drawn in (see the top of the file).
  const xcb_pixmap_t back = xcb_generate_id(c);
  xcb_create_pixmap(c, s->root_depth, back, win, uint16_t(W), uint16_t(H));
  const xcb_gcontext_t copy_gc = xcb_generate_id(c);
  const uint32_t no_exposures = 0;
  xcb_create_gc(c, copy_gc, win, XCB_GC_GRAPHICS_EXPOSURES, &no_exposures);
  BoxPainter p(c, back);
  const auto show = [&](const Box& b) {
    xcb_copy_area(c, back, win, copy_gc, int16_t(b.x), int16_t(b.y), int16_t(b.x), int16_t(b.y), uint16_t(b.w),
                  uint16_t(b.h));
  };
  // Still content the animation moves against: a lighter frame and a grid.
  voxl::bench::ScenePicture scene(W, H, mode == "fullscreen");
  for (const auto& f : scene.still_fills()) p.fill(f.boxes, f.rgb);
  show({0, 0, W, H});
  std::unique_ptr<voxl::bench::TexturePicture> texture;
  std::unique_ptr<voxl::bench::FramePutter> putter;
  if (mode == "texture") {
    texture = std::make_unique<voxl::bench::TexturePicture>(W, H);
    putter = std::make_unique<voxl::bench::FramePutter>(c, win, W, H, s->root_depth);
  }
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (uint32_t frame = 1;; ++frame) {
    const int64_t drawn_us = voxl::bench::realtime_us();
    if (texture) {
      texture->render(frame, putter->pixels(), W);
      paint_marker(putter->pixels(), W, frame, cell);
      putter->put();
    } else {
      if (mode != "idle")
        for (const auto& f : scene.frame_fills(frame)) p.fill(f.boxes, f.rgb);
      std::vector<Box> dark, light;
      for (const auto& m : voxl::bench::marker_cells(frame, cell))
        (m.light ? light : dark).push_back({m.x, m.y, m.size, m.size});
      p.fill(dark, 0x000000);
      p.fill(light, 0xffffff);
      // The marker last (it is in the moving area when that is the screen):
      // a capture between the two copies is counted as the older frame.
      const Box& area = scene.moving_area();
      if (mode != "idle") show(area);
      if (mode == "idle" || area.x > 0 || area.y > 0)
        show({0, 0, voxl::bench::marker_width(cell), voxl::bench::marker_height(cell)});
      // Waits until the server has put the frame up, as toolkits do (a
      // frame callback, a sync counter, Present) rather than queueing
      // frames in the socket of a server that is behind.
      std::free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr));
    }
    std::fprintf(log, "%u %lld\n", frame, static_cast<long long>(drawn_us));
    std::fflush(log);
    if (mode == "idle") {
      // Nothing moves: wait for the display to go away.
      while (xcb_generic_event_t* e = xcb_wait_for_event(c)) std::free(e);
      return 0;
    }
    if (xcb_connection_has_error(c)) return 0;
    if (hold.hold_requested()) {
      // The display only matters when it goes away.
      const auto still_there = [c] {
        while (xcb_generic_event_t* e = xcb_poll_for_event(c)) std::free(e);
        return xcb_connection_has_error(c) == 0;
      };
      if (!hold.wait_for_move(xcb_get_file_descriptor(c), still_there)) return 0;
      clock_gettime(CLOCK_MONOTONIC, &next);
      continue;
    }
    add_ns(next, 1000000000L / fps);
    // Behind by more than a frame (a busy machine): drop the missed frames
    // rather than drawing a burst of them.
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > next.tv_sec + 1 ||
        (now.tv_sec - next.tv_sec) * 1000000000L + (now.tv_nsec - next.tv_nsec) > 1000000000L / fps)
      next = now;
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
  }
}
