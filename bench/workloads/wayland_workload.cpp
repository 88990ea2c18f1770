// The workloads of marker_workload.cpp as a Wayland program, for measuring a
// Wayland desktop beside an X11 one with the same pictures: a fullscreen
// window showing the animation (the scene's moving area), the full-screen
// animation, the scrolling photo-like texture (the default) or one still
// frame, with the frame marker in its corner, frame by frame at --fps, each
// frame's draw time appended to the log as "counter realtime_us". The
// compositor is told only the moving area and the marker changed, and each
// frame is drawn once it has shown the last (its frame callback), as
// toolkits do. SIGUSR1 holds the picture still, SIGUSR2 moves it again
// (hold_signals.h), as in the X11 workload.
//
//   voxl-bench-wayland-workload --log FILE [--mode animation|fullscreen|texture|idle] [--fps 60] [--cell 16]
//
// Frames are drawn into shared-memory buffers the program reuses (three at
// most); a frame whose time comes while every buffer is still being read by
// the compositor is skipped, as the X11 workload skips frames it is late
// for. Draws on $WAYLAND_DISPLAY until killed or the compositor goes away.
#include <poll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <wayland-client.h>

#include "animation_helpers.h"
#include "hold_signals.h"
#include "marker/marker.h"
#include "scene_picture.h"
#include "texture_picture.h"
#include "xdg-shell-client.h"

namespace {

struct Buffer {
  wl_buffer* buffer = nullptr;
  uint32_t* pixels = nullptr;
  bool busy = false;
};

struct Window {
  wl_display* display = nullptr;
  wl_compositor* compositor = nullptr;
  wl_shm* shm = nullptr;
  xdg_wm_base* wm = nullptr;
  wl_surface* surface = nullptr;
  int width = 0, height = 0;
  bool configured = false;
  bool fullscreen = false;
  bool running = true;
  std::vector<Buffer*> buffers;
};

void on_global(void* data, wl_registry* reg, uint32_t name, const char* interface, uint32_t) {
  auto& w = *static_cast<Window*>(data);
  const std::string i = interface;
  if (i == wl_compositor_interface.name)
    w.compositor = static_cast<wl_compositor*>(wl_registry_bind(reg, name, &wl_compositor_interface, 4));
  else if (i == wl_shm_interface.name)
    w.shm = static_cast<wl_shm*>(wl_registry_bind(reg, name, &wl_shm_interface, 1));
  else if (i == xdg_wm_base_interface.name)
    w.wm = static_cast<xdg_wm_base*>(wl_registry_bind(reg, name, &xdg_wm_base_interface, 1));
}

// A buffer of the window's size the compositor is not reading, or null
// when all three are.
Buffer* free_buffer(Window& w) {
  for (Buffer* b : w.buffers)
    if (!b->busy) return b;
  if (w.buffers.size() >= 3) return nullptr;
  const int stride = w.width * 4;
  const size_t bytes = size_t(stride) * size_t(w.height);
  const int fd = memfd_create("voxl-workload", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, off_t(bytes)) != 0) return nullptr;
  void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) {
    close(fd);
    return nullptr;
  }
  wl_shm_pool* pool = wl_shm_create_pool(w.shm, fd, int32_t(bytes));
  auto* b = new Buffer{wl_shm_pool_create_buffer(pool, 0, w.width, w.height, stride, WL_SHM_FORMAT_XRGB8888),
                       static_cast<uint32_t*>(m)};
  wl_shm_pool_destroy(pool);
  close(fd);
  static constexpr wl_buffer_listener release = {[](void* data, wl_buffer*) { static_cast<Buffer*>(data)->busy = false; }};
  wl_buffer_add_listener(b->buffer, &release, b);
  w.buffers.push_back(b);
  return b;
}

void paint_marker(uint32_t* px, int stride, uint32_t counter, int cell) {
  for (const auto& m : voxl::bench::marker_cells(counter, cell))
    for (int y = m.y; y < m.y + m.size; ++y)
      std::fill_n(px + size_t(y) * size_t(stride) + size_t(m.x), m.size, m.light ? 0xffffffu : 0u);
}

// Reads and handles what the compositor sent, waiting `timeout_ms` at
// most (0: only what is there); false once the connection is gone.
bool pump(Window& w, int timeout_ms) {
  while (wl_display_prepare_read(w.display) != 0)
    if (wl_display_dispatch_pending(w.display) < 0) return false;
  wl_display_flush(w.display);
  pollfd fd{wl_display_get_fd(w.display), POLLIN, 0};
  if (poll(&fd, 1, timeout_ms) > 0 && (fd.revents & POLLIN)) {
    if (wl_display_read_events(w.display) < 0) return false;
  } else {
    wl_display_cancel_read(w.display);
    if (fd.revents & (POLLERR | POLLHUP)) return false;
  }
  return wl_display_dispatch_pending(w.display) >= 0;
}

int open_window(Window& w) {
  w.display = wl_display_connect(nullptr);
  if (!w.display) {
    std::fprintf(stderr, "voxl-bench-wayland-workload: no Wayland compositor (is WAYLAND_DISPLAY set?)\n");
    return 1;
  }
  static constexpr wl_registry_listener rl = {on_global, [](void*, wl_registry*, uint32_t) {}};
  wl_registry_add_listener(wl_display_get_registry(w.display), &rl, &w);
  wl_display_roundtrip(w.display);
  if (!w.compositor || !w.shm || !w.wm) {
    std::fprintf(stderr, "voxl-bench-wayland-workload: the compositor lacks wl_compositor, wl_shm or xdg_wm_base\n");
    return 1;
  }
  static constexpr xdg_wm_base_listener pong = {[](void*, xdg_wm_base* wm, uint32_t s) { xdg_wm_base_pong(wm, s); }};
  xdg_wm_base_add_listener(w.wm, &pong, &w);
  w.surface = wl_compositor_create_surface(w.compositor);
  xdg_surface* xs = xdg_wm_base_get_xdg_surface(w.wm, w.surface);
  static constexpr xdg_surface_listener xl = {[](void* data, xdg_surface* s, uint32_t serial) {
    xdg_surface_ack_configure(s, serial);
    static_cast<Window*>(data)->configured = true;
  }};
  xdg_surface_add_listener(xs, &xl, &w);
  xdg_toplevel* top = xdg_surface_get_toplevel(xs);
  static constexpr xdg_toplevel_listener tl = {
      [](void* data, xdg_toplevel*, int32_t width, int32_t height, wl_array* states) {
        auto& win = *static_cast<Window*>(data);
        if (width > 0 && height > 0) win.width = width, win.height = height;
        const auto* s = static_cast<const uint32_t*>(states->data);
        for (size_t i = 0; i < states->size / sizeof(uint32_t); ++i)
          if (s[i] == XDG_TOPLEVEL_STATE_FULLSCREEN) win.fullscreen = true;
      },
      [](void* data, xdg_toplevel*) { static_cast<Window*>(data)->running = false; },
      [](void*, xdg_toplevel*, int32_t, int32_t) {}, [](void*, xdg_toplevel*, wl_array*) {}};
  xdg_toplevel_add_listener(top, &tl, &w);
  xdg_toplevel_set_app_id(top, "voxl-bench-wayland-workload");
  xdg_toplevel_set_fullscreen(top, nullptr);
  wl_surface_commit(w.surface);
  while (!w.configured)
    if (wl_display_dispatch(w.display) < 0) return 1;
  // sway makes a window fullscreen once it has shown something.
  if (!w.fullscreen) {
    const int width = w.width, height = w.height;
    w.width = w.height = 64;
    Buffer* b = free_buffer(w);
    if (!b) return 1;
    std::fill_n(b->pixels, 64 * 64, 0u);
    wl_surface_attach(w.surface, b->buffer, 0, 0);
    wl_surface_commit(w.surface);
    while (!w.fullscreen || w.width == 64)
      if (wl_display_dispatch(w.display) < 0) return 1;
    if (w.width == 0) w.width = width, w.height = height;
    for (Buffer* old : w.buffers) old->busy = true;  // of the old size: never used again
    w.buffers.clear();
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string log_path, mode = "texture";
  int fps = 60, cell = voxl::bench::kDefaultMarkerCell;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--log") log_path = argv[i + 1];
    else if (a == "--mode") mode = argv[i + 1];
    else if (a == "--fps") fps = std::atoi(argv[i + 1]);
    else if (a == "--cell") cell = std::atoi(argv[i + 1]);
    else log_path.clear(), i = argc;
  }
  const bool known = mode == "animation" || mode == "fullscreen" || mode == "texture" || mode == "idle";
  if (log_path.empty() || !known || argc % 2 == 0 || fps < 1 || fps > 240 || cell < 4 || cell > 64) {
    std::fprintf(stderr,
                 "usage: voxl-bench-wayland-workload --log FILE [--mode animation|fullscreen|texture|idle] "
                 "[--fps 1-240] [--cell 4-64]\n");
    return 2;
  }
  voxl::bench::HoldSignals hold;  // before anything else: it blocks its signals
  FILE* log = std::fopen(log_path.c_str(), "a");
  if (!log) {
    std::fprintf(stderr, "voxl-bench-wayland-workload: cannot open %s\n", log_path.c_str());
    return 1;
  }
  Window w;
  if (open_window(w) != 0) return 1;
  std::unique_ptr<voxl::bench::TexturePicture> texture;
  std::unique_ptr<voxl::bench::ScenePicture> scene;
  if (mode == "texture") texture = std::make_unique<voxl::bench::TexturePicture>(w.width, w.height);
  else scene = std::make_unique<voxl::bench::ScenePicture>(w.width, w.height, mode == "fullscreen");
  // What changes from frame to frame, as the X11 workload shows it: the
  // whole picture, or the scene's moving area and the marker.
  const voxl::bench::Box marker{0, 0, voxl::bench::marker_width(cell), voxl::bench::marker_height(cell)};
  const voxl::bench::Box moving = scene ? scene->moving_area() : voxl::bench::Box{0, 0, w.width, w.height};
  const long interval_ns = 1000000000L / fps;
  // The compositor has shown the last frame: its frame callback came.
  bool shown = true;
  static constexpr wl_callback_listener kShown = {[](void* data, wl_callback* cb, uint32_t) {
    *static_cast<bool*>(data) = true;
    wl_callback_destroy(cb);
  }};
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (uint32_t frame = 1; w.running; ++frame) {
    // Idle: the first frame, then nothing but the compositor's events.
    if (mode == "idle" && frame > 1) {
      if (!pump(w, -1)) return 0;
      continue;
    }
    if (Buffer* b = free_buffer(w)) {
      const int64_t drawn_us = voxl::bench::realtime_us();
      // Each buffer is drawn whole (the three take turns), but only what
      // changed is said to have.
      if (texture) texture->render(frame, b->pixels, w.width);
      else scene->render(frame, b->pixels);
      paint_marker(b->pixels, w.width, frame, cell);
      b->busy = true;
      wl_surface_attach(w.surface, b->buffer, 0, 0);
      if (frame == 1 || mode == "idle") {
        wl_surface_damage_buffer(w.surface, 0, 0, w.width, w.height);
      } else {
        wl_surface_damage_buffer(w.surface, moving.x, moving.y, moving.w, moving.h);
        wl_surface_damage_buffer(w.surface, marker.x, marker.y, marker.w, marker.h);
      }
      shown = false;
      wl_callback_add_listener(wl_surface_frame(w.surface), &kShown, &shown);
      wl_surface_commit(w.surface);
      std::fprintf(log, "%u %lld\n", frame, static_cast<long long>(drawn_us));
      std::fflush(log);
    }
    if (hold.hold_requested()) {
      wl_display_flush(w.display);  // the last frame reaches the compositor
      if (!hold.wait_for_move(wl_display_get_fd(w.display), [&w] { return pump(w, 0); })) return 0;
      clock_gettime(CLOCK_MONOTONIC, &next);
      continue;
    }
    voxl::bench::add_ns(next, interval_ns);
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > next.tv_sec + 1 || (now.tv_sec - next.tv_sec) * 1000000000L + (now.tv_nsec - next.tv_nsec) > interval_ns)
      next = now;
    // Paced as toolkits pace themselves: the next frame once the compositor
    // has shown this one (so none is drawn that it would never show), and
    // no sooner than half a frame before its time (so --fps holds). A
    // compositor that shows nothing for a second is not waited for.
    const auto left_ns = [&] {
      clock_gettime(CLOCK_MONOTONIC, &now);
      return (next.tv_sec - now.tv_sec) * 1000000000L + (next.tv_nsec - now.tv_nsec);
    };
    for (long left = left_ns(); !(shown && left <= interval_ns / 2) && left > -1000000000L; left = left_ns()) {
      const long wait_ns = shown ? left - interval_ns / 2 : std::max(0L, left + 1000000000L);
      if (!pump(w, int((wait_ns + 999999) / 1000000))) return 0;
    }
  }
  return 0;
}
