// voxl-wayland-probe: a Wayland program for the tests. It shows one
// fullscreen window whose picture the test sets through stdin, and prints
// what input reaches it:
//
//   stdin:  fill RRGGBB            the whole window one colour
//           rect X Y W H RRGGBB    a rectangle of it (only that damaged)
//   stdout: ready WxH              the first picture is shown
//           drawn N                the Nth picture after it is committed
//           resized WxH            the window changed size (drawn again, one colour)
//           text <utf-8>           a key press that types something
//           key <keysym hex>       a key press that types nothing (or a control
//                                  character); both say "ctrl+" before it
//                                  while Control is held
//           button <code> X,Y      a button press at window coordinates
//           scroll <axis> <value>  a wheel turn (value in wl_fixed units / 256)
//
// With "react" after the colour, the picture answers input too, for tests
// that only see the screen: a key that types a character fills the window
// with the character's code point as the colour (é: 0x0000e9), a button
// press with 0x00ff00.
//
// It runs until stdin closes or the compositor goes away.
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

#include "xdg-shell-client.h"

namespace {

struct ShmBuffer;

struct Probe {
  wl_display* display = nullptr;
  wl_registry* registry = nullptr;
  wl_compositor* compositor = nullptr;
  wl_shm* shm = nullptr;
  xdg_wm_base* wm = nullptr;
  wl_seat* seat = nullptr;
  wl_surface* surface = nullptr;
  xdg_surface* xsurface = nullptr;
  xdg_toplevel* toplevel = nullptr;
  wl_keyboard* keyboard = nullptr;
  wl_pointer* pointer = nullptr;
  int width = 0, height = 0;
  bool configured = false;
  bool fullscreen = false;  // the compositor said so in a configure
  bool shown = false;       // the first full-size picture is up
  bool resized = false;     // a new size came since, not drawn yet
  uint32_t colour = 0;
  std::vector<uint32_t> pixels;  // what the window shows, XRGB
  std::vector<ShmBuffer*> buffers;  // of the window's size, 4 at most
  int drawn = 0;
  xkb_context* xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
  xkb_keymap* keymap = nullptr;
  xkb_state* state = nullptr;
  double px = 0, py = 0;
  bool running = true;
  bool react = false;
};

void say(const std::string& line) {
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

// A shared-memory buffer the compositor may be reading (busy) until it
// releases it.
struct ShmBuffer {
  wl_buffer* buffer = nullptr;
  void* map = nullptr;
  size_t bytes = 0;
  int width = 0, height = 0;
  bool busy = false;
  bool stale = false;  // of an older size: destroyed once released
};

void destroy(ShmBuffer* b) {
  wl_buffer_destroy(b->buffer);
  munmap(b->map, b->bytes);
  delete b;
}

// A buffer of the window's size that the compositor is not reading, made
// when none is free (buffers are reused, as a program's are, so a frame
// costs no new memory).
ShmBuffer* free_buffer(Probe& p) {
  for (;;) {
    for (ShmBuffer* b : p.buffers)
      if (!b->busy) return b;
    if (p.buffers.size() < 4) break;
    // All four are being read: the compositor releases one soon.
    if (wl_display_roundtrip(p.display) < 0) return nullptr;
  }
  const int stride = p.width * 4;
  const size_t bytes = size_t(stride) * size_t(p.height);
  const int fd = memfd_create("probe", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, off_t(bytes)) != 0) return nullptr;
  void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) {
    close(fd);
    return nullptr;
  }
  wl_shm_pool* pool = wl_shm_create_pool(p.shm, fd, int32_t(bytes));
  auto* b = new ShmBuffer{wl_shm_pool_create_buffer(pool, 0, p.width, p.height, stride, WL_SHM_FORMAT_XRGB8888), m,
                          bytes, p.width, p.height};
  wl_shm_pool_destroy(pool);
  close(fd);
  static constexpr wl_buffer_listener release = {[](void* data, wl_buffer*) {
    auto* b = static_cast<ShmBuffer*>(data);
    b->busy = false;
    if (b->stale) destroy(b);
  }};
  wl_buffer_add_listener(b->buffer, &release, b);
  p.buffers.push_back(b);
  return b;
}

// Shows `pixels`, `damage` of it marked as changed.
void show(Probe& p, int dx, int dy, int dw, int dh) {
  // Buffers of another size go: now if free, else once released.
  for (auto it = p.buffers.begin(); it != p.buffers.end();) {
    ShmBuffer* b = *it;
    if (b->width == p.width && b->height == p.height) {
      ++it;
      continue;
    }
    it = p.buffers.erase(it);
    if (b->busy)
      b->stale = true;
    else
      destroy(b);
  }
  ShmBuffer* b = free_buffer(p);
  if (!b) return;
  std::memcpy(b->map, p.pixels.data(), b->bytes);
  b->busy = true;
  wl_surface_attach(p.surface, b->buffer, 0, 0);
  wl_surface_damage_buffer(p.surface, dx, dy, dw, dh);
  wl_surface_commit(p.surface);
  wl_display_flush(p.display);
}

void fill_rect(Probe& p, int x, int y, int w, int h, uint32_t rgb) {
  for (int r = std::max(0, y); r < std::min(p.height, y + h); ++r)
    for (int c = std::max(0, x); c < std::min(p.width, x + w); ++c)
      p.pixels[size_t(r) * size_t(p.width) + size_t(c)] = rgb;
}

void command(Probe& p, const std::string& line) {
  unsigned rgb = 0;
  int x = 0, y = 0, w = 0, h = 0;
  if (std::sscanf(line.c_str(), "fill %x", &rgb) == 1) {
    fill_rect(p, 0, 0, p.width, p.height, rgb);
    show(p, 0, 0, p.width, p.height);
  } else if (std::sscanf(line.c_str(), "rect %d %d %d %d %x", &x, &y, &w, &h, &rgb) == 5) {
    fill_rect(p, x, y, w, h, rgb);
    show(p, x, y, w, h);
  } else {
    say("unknown " + line);
    return;
  }
  say("drawn " + std::to_string(++p.drawn));
}

void on_global(void* data, wl_registry* reg, uint32_t name, const char* iface, uint32_t version) {
  auto& p = *static_cast<Probe*>(data);
  const std::string i = iface;
  if (i == wl_compositor_interface.name)
    p.compositor = static_cast<wl_compositor*>(wl_registry_bind(reg, name, &wl_compositor_interface, 4));
  else if (i == wl_shm_interface.name)
    p.shm = static_cast<wl_shm*>(wl_registry_bind(reg, name, &wl_shm_interface, 1));
  else if (i == xdg_wm_base_interface.name)
    p.wm = static_cast<xdg_wm_base*>(wl_registry_bind(reg, name, &xdg_wm_base_interface, 1));
  else if (i == wl_seat_interface.name && !p.seat)
    p.seat = static_cast<wl_seat*>(wl_registry_bind(reg, name, &wl_seat_interface, std::min(version, 5u)));
}

void keymap(void* data, wl_keyboard*, uint32_t format, int32_t fd, uint32_t size) {
  auto& p = *static_cast<Probe*>(data);
  if (format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) {
    void* m = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      if (p.state) xkb_state_unref(p.state);
      if (p.keymap) xkb_keymap_unref(p.keymap);
      p.keymap = xkb_keymap_new_from_string(p.xkb, static_cast<const char*>(m), XKB_KEYMAP_FORMAT_TEXT_V1,
                                            XKB_KEYMAP_COMPILE_NO_FLAGS);
      p.state = p.keymap ? xkb_state_new(p.keymap) : nullptr;
      munmap(m, size);
    }
  }
  close(fd);
}

void key(void* data, wl_keyboard*, uint32_t, uint32_t, uint32_t code, uint32_t state) {
  auto& p = *static_cast<Probe*>(data);
  if (!p.state || state != WL_KEYBOARD_KEY_STATE_PRESSED) return;
  char text[64] = {};
  xkb_state_key_get_utf8(p.state, code + 8, text, sizeof text);
  const bool ctrl = xkb_state_mod_name_is_active(p.state, XKB_MOD_NAME_CTRL, XKB_STATE_MODS_EFFECTIVE) > 0;
  if (text[0] >= 0x20 || (static_cast<unsigned char>(text[0]) >= 0x80)) {
    say(std::string("text ") + (ctrl ? "ctrl+" : "") + text);
    const uint32_t cp = xkb_keysym_to_utf32(xkb_state_key_get_one_sym(p.state, code + 8));
    if (p.react && cp) {
      fill_rect(p, 0, 0, p.width, p.height, cp & 0xffffff);
      show(p, 0, 0, p.width, p.height);
    }
  } else {
    char hex[32];
    std::snprintf(hex, sizeof hex, "key %s%x", ctrl ? "ctrl+" : "", xkb_state_key_get_one_sym(p.state, code + 8));
    say(hex);
  }
}

void modifiers(void* data, wl_keyboard*, uint32_t, uint32_t dep, uint32_t lat, uint32_t lock, uint32_t group) {
  auto& p = *static_cast<Probe*>(data);
  if (p.state) xkb_state_update_mask(p.state, dep, lat, lock, 0, 0, group);
}

void motion(void* data, wl_pointer*, uint32_t, wl_fixed_t x, wl_fixed_t y) {
  auto& p = *static_cast<Probe*>(data);
  p.px = wl_fixed_to_double(x);
  p.py = wl_fixed_to_double(y);
}

void enter(void* data, wl_pointer* ptr, uint32_t, wl_surface*, wl_fixed_t x, wl_fixed_t y) {
  motion(data, ptr, 0, x, y);
}

void button(void* data, wl_pointer*, uint32_t, uint32_t, uint32_t code, uint32_t state) {
  auto& p = *static_cast<Probe*>(data);
  if (state != WL_POINTER_BUTTON_STATE_PRESSED) return;
  say("button " + std::to_string(code) + " " + std::to_string(int(p.px)) + "," + std::to_string(int(p.py)));
  if (p.react) {
    fill_rect(p, 0, 0, p.width, p.height, 0x00ff00);
    show(p, 0, 0, p.width, p.height);
  }
}

void axis(void*, wl_pointer*, uint32_t, uint32_t which, wl_fixed_t value) {
  say("scroll " + std::to_string(which) + " " + std::to_string(value / 256));
}

void capabilities(void* data, wl_seat* seat, uint32_t caps) {
  auto& p = *static_cast<Probe*>(data);
  static constexpr wl_keyboard_listener kl = {
      keymap, [](void*, wl_keyboard*, uint32_t, wl_surface*, wl_array*) {},
      [](void*, wl_keyboard*, uint32_t, wl_surface*) {}, key, modifiers,
      [](void*, wl_keyboard*, int32_t, int32_t) {}};
  static constexpr wl_pointer_listener pl = {
      enter, [](void*, wl_pointer*, uint32_t, wl_surface*) {}, motion, button, axis,
      [](void*, wl_pointer*) {}, [](void*, wl_pointer*, uint32_t) {}, [](void*, wl_pointer*, uint32_t, uint32_t) {},
      [](void*, wl_pointer*, uint32_t, int32_t) {}};
  if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !p.keyboard) {
    p.keyboard = wl_seat_get_keyboard(seat);
    wl_keyboard_add_listener(p.keyboard, &kl, &p);
    wl_display_roundtrip(p.display);
    say("seat keyboard");
  }
  if ((caps & WL_SEAT_CAPABILITY_POINTER) && !p.pointer) {
    p.pointer = wl_seat_get_pointer(seat);
    wl_pointer_add_listener(p.pointer, &pl, &p);
    wl_display_roundtrip(p.display);
    say("seat pointer");
  }
}

}  // namespace

int main(int argc, char** argv) {
  Probe p;
  uint32_t colour = argc > 1 ? uint32_t(std::strtoul(argv[1], nullptr, 16)) : 0x336699;
  p.react = argc > 2 && std::string(argv[2]) == "react";
  p.display = wl_display_connect(nullptr);
  if (!p.display) {
    std::fprintf(stderr, "voxl-wayland-probe: no Wayland compositor\n");
    return 1;
  }
  static constexpr wl_registry_listener rl = {on_global, [](void*, wl_registry*, uint32_t) {}};
  p.registry = wl_display_get_registry(p.display);
  wl_registry_add_listener(p.registry, &rl, &p);
  wl_display_roundtrip(p.display);
  if (!p.compositor || !p.shm || !p.wm) {
    std::fprintf(stderr, "voxl-wayland-probe: the compositor lacks wl_compositor, wl_shm or xdg_wm_base\n");
    return 1;
  }
  static constexpr xdg_wm_base_listener wl = {[](void*, xdg_wm_base* wm, uint32_t s) { xdg_wm_base_pong(wm, s); }};
  xdg_wm_base_add_listener(p.wm, &wl, &p);
  static constexpr wl_seat_listener sl = {capabilities, [](void*, wl_seat*, const char*) {}};
  if (p.seat) wl_seat_add_listener(p.seat, &sl, &p);
  p.surface = wl_compositor_create_surface(p.compositor);
  p.xsurface = xdg_wm_base_get_xdg_surface(p.wm, p.surface);
  static constexpr xdg_surface_listener xl = {[](void* data, xdg_surface* s, uint32_t serial) {
    auto& pr = *static_cast<Probe*>(data);
    xdg_surface_ack_configure(s, serial);
    pr.configured = true;
    // Made larger or smaller once shown: drawn again at the new size.
    if (pr.resized) {
      pr.resized = false;
      pr.pixels.assign(size_t(pr.width) * size_t(pr.height), pr.colour);
      show(pr, 0, 0, pr.width, pr.height);
      say("resized " + std::to_string(pr.width) + "x" + std::to_string(pr.height));
    }
  }};
  xdg_surface_add_listener(p.xsurface, &xl, &p);
  p.toplevel = xdg_surface_get_toplevel(p.xsurface);
  static constexpr xdg_toplevel_listener tl = {
      [](void* data, xdg_toplevel*, int32_t w, int32_t h, wl_array* states) {
        auto& pr = *static_cast<Probe*>(data);
        if (w > 0 && h > 0 && (w != pr.width || h != pr.height)) {
          pr.width = w;
          pr.height = h;
          pr.resized = pr.shown;
        }
        const auto* s = static_cast<const uint32_t*>(states->data);
        for (size_t i = 0; i < states->size / sizeof(uint32_t); ++i)
          if (s[i] == XDG_TOPLEVEL_STATE_FULLSCREEN) pr.fullscreen = true;
      },
      [](void* data, xdg_toplevel*) { static_cast<Probe*>(data)->running = false; }};
  xdg_toplevel_add_listener(p.toplevel, &tl, &p);
  xdg_toplevel_set_app_id(p.toplevel, "voxl-wayland-probe");
  xdg_toplevel_set_fullscreen(p.toplevel, nullptr);
  wl_surface_commit(p.surface);
  // sway makes a window fullscreen once it has shown something: a small
  // picture first, then the output's size.
  while (!p.configured)
    if (wl_display_dispatch(p.display) < 0) return 1;
  if (p.width == 0) {
    p.width = p.height = 64;
    p.pixels.assign(size_t(64 * 64), colour);
    show(p, 0, 0, 64, 64);
  }
  while (!p.fullscreen || p.width == 0)
    if (wl_display_dispatch(p.display) < 0) return 1;
  p.pixels.assign(size_t(p.width) * size_t(p.height), colour);
  show(p, 0, 0, p.width, p.height);
  p.shown = true;
  p.colour = colour;
  wl_display_roundtrip(p.display);
  say("ready " + std::to_string(p.width) + "x" + std::to_string(p.height));

  std::string input;
  bool reading = true;  // stdin is open
  while (p.running) {
    while (wl_display_prepare_read(p.display) != 0) wl_display_dispatch_pending(p.display);
    wl_display_flush(p.display);
    pollfd fds[2] = {{wl_display_get_fd(p.display), POLLIN, 0}, {0, POLLIN, 0}};
    if (poll(fds, reading ? 2 : 1, -1) < 0) {
      wl_display_cancel_read(p.display);
      break;
    }
    if (fds[0].revents & POLLIN) wl_display_read_events(p.display);
    else wl_display_cancel_read(p.display);
    if (wl_display_dispatch_pending(p.display) < 0) break;
    if (fds[0].revents & (POLLERR | POLLHUP)) break;
    if (reading && (fds[1].revents & (POLLIN | POLLHUP))) {
      char buf[512];
      const ssize_t n = read(0, buf, sizeof buf);
      // The end of stdin ends the probe, unless it reacts to input (started
      // by voxl, with nothing on stdin): then it stays until the compositor
      // goes.
      if (n <= 0 && !p.react) break;
      if (n <= 0) {
        reading = false;
        continue;
      }
      input.append(buf, size_t(n));
      for (size_t nl; (nl = input.find('\n')) != std::string::npos; input.erase(0, nl + 1)) {
        // A resize that came since is drawn at its new size.
        if (p.pixels.size() != size_t(p.width) * size_t(p.height))
          p.pixels.assign(size_t(p.width) * size_t(p.height), colour);
        command(p, input.substr(0, nl));
      }
    }
  }
  if (p.state) xkb_state_unref(p.state);
  if (p.keymap) xkb_keymap_unref(p.keymap);
  xkb_context_unref(p.xkb);
  if (p.keyboard) wl_keyboard_destroy(p.keyboard);
  if (p.pointer) wl_pointer_destroy(p.pointer);
  xdg_toplevel_destroy(p.toplevel);
  xdg_surface_destroy(p.xsurface);
  wl_surface_destroy(p.surface);
  xdg_wm_base_destroy(p.wm);
  if (p.seat) wl_seat_destroy(p.seat);
  wl_shm_destroy(p.shm);
  wl_compositor_destroy(p.compositor);
  wl_registry_destroy(p.registry);
  wl_display_disconnect(p.display);
  return 0;
}
