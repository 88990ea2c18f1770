#include "platform/wayland/wayland_display.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <wayland-client.h>

#include "virtual-keyboard-unstable-v1-client.h"
#include "wlr-data-control-unstable-v1-client.h"
#include "wlr-screencopy-unstable-v1-client.h"
#include "wlr-virtual-pointer-unstable-v1-client.h"

namespace voxl::platform::wayland {

std::string socket_path(const std::string& name) {
  std::string n = name;
  if (n.empty()) {
    const char* env = std::getenv("WAYLAND_DISPLAY");
    n = env && *env ? env : "wayland-0";
  }
  if (n.front() == '/') return n;
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  if (!runtime || !*runtime)
    throw std::runtime_error("cannot find the Wayland socket '" + n +
                             "': XDG_RUNTIME_DIR is not set (give the socket's full path instead)");
  return std::string(runtime) + "/" + n;
}

namespace {

void ignore_geometry(void*, wl_output*, int32_t, int32_t, int32_t, int32_t, int32_t, const char*, const char*,
                     int32_t) {}
void ignore_done(void*, wl_output*) {}
void ignore_scale(void*, wl_output*, int32_t) {}
void ignore_description(void*, wl_output*, const char*) {}

}  // namespace

WaylandDisplay::WaylandDisplay(const std::string& name) : path_(socket_path(name)) {
  display_ = wl_display_connect(path_.c_str());
  if (!display_)
    throw std::runtime_error("cannot connect to the Wayland compositor at " + path_ + ": " + std::strerror(errno));
  static constexpr wl_registry_listener registry_listener = {&WaylandDisplay::on_global,
                                                             &WaylandDisplay::on_global_remove};
  registry_ = wl_display_get_registry(display_);
  wl_registry_add_listener(registry_, &registry_listener, this);
  // The globals, then the events the bound ones send at once (the mode).
  if (wl_display_roundtrip(display_) < 0 || wl_display_roundtrip(display_) < 0) {
    const std::string why = error();
    close();
    throw std::runtime_error("the Wayland compositor at " + path_ + " failed: " + why);
  }
  std::string missing;
  if (!shm_) missing = "wl_shm";
  else if (!output_) missing = "an output (wl_output)";
  if (!missing.empty()) {
    close();
    throw std::runtime_error("the Wayland compositor at " + path_ + " has no " + missing);
  }
}

WaylandDisplay::~WaylandDisplay() { close(); }

void WaylandDisplay::close() {
  if (!display_) return;
  if (data_control_) zwlr_data_control_manager_v1_destroy(data_control_);
  if (virtual_pointer_) zwlr_virtual_pointer_manager_v1_destroy(virtual_pointer_);
  if (virtual_keyboard_) wl_proxy_destroy(reinterpret_cast<wl_proxy*>(virtual_keyboard_));
  if (screencopy_) zwlr_screencopy_manager_v1_destroy(screencopy_);
  if (seat_) wl_seat_destroy(seat_);
  if (output_) wl_output_destroy(output_);
  if (shm_) wl_shm_destroy(shm_);
  if (registry_) wl_registry_destroy(registry_);
  wl_display_disconnect(display_);
  display_ = nullptr;
}

void WaylandDisplay::on_global(void* data, wl_registry* registry, uint32_t name, const char* interface,
                               uint32_t version) {
  auto* self = static_cast<WaylandDisplay*>(data);
  const std::string_view i(interface);
  if (self->globals_.size() < 256) self->globals_.push_back({name, interface, version});
  auto bind = [&](const wl_interface* what, uint32_t ours) {
    return wl_registry_bind(registry, name, what, std::min(version, ours));
  };
  if (i == wl_shm_interface.name && !self->shm_) {
    self->shm_ = static_cast<wl_shm*>(bind(&wl_shm_interface, 1));
  } else if (i == wl_output_interface.name && !self->output_) {
    self->output_ = static_cast<wl_output*>(bind(&wl_output_interface, 4));
    static constexpr wl_output_listener output_listener = {
        .geometry = ignore_geometry,
        .mode = &WaylandDisplay::on_mode,
        .done = ignore_done,
        .scale = ignore_scale,
        .name = &WaylandDisplay::on_name,
        .description = ignore_description,
    };
    wl_output_add_listener(self->output_, &output_listener, self);
  } else if (i == wl_seat_interface.name && !self->seat_) {
    self->seat_ = static_cast<wl_seat*>(bind(&wl_seat_interface, 1));
  } else if (i == zwlr_screencopy_manager_v1_interface.name && !self->screencopy_) {
    self->screencopy_version_ = std::min(version, 3u);
    self->screencopy_ = static_cast<zwlr_screencopy_manager_v1*>(bind(&zwlr_screencopy_manager_v1_interface, 3));
  } else if (i == zwp_virtual_keyboard_manager_v1_interface.name && !self->virtual_keyboard_) {
    self->virtual_keyboard_ =
        static_cast<zwp_virtual_keyboard_manager_v1*>(bind(&zwp_virtual_keyboard_manager_v1_interface, 1));
  } else if (i == zwlr_virtual_pointer_manager_v1_interface.name && !self->virtual_pointer_) {
    self->virtual_pointer_version_ = std::min(version, 2u);
    self->virtual_pointer_ =
        static_cast<zwlr_virtual_pointer_manager_v1*>(bind(&zwlr_virtual_pointer_manager_v1_interface, 2));
  } else if (i == zwlr_data_control_manager_v1_interface.name && !self->data_control_) {
    // Version 1: the primary selection is not carried.
    self->data_control_ =
        static_cast<zwlr_data_control_manager_v1*>(bind(&zwlr_data_control_manager_v1_interface, 1));
  }
}

std::optional<WaylandDisplay::Global> WaylandDisplay::global(const std::string& interface) const {
  for (const Global& g : globals_)
    if (g.interface == interface) return g;
  return std::nullopt;
}

void WaylandDisplay::on_global_remove(void*, wl_registry*, uint32_t) {
  // An output or seat going away shows as failed requests on it; the
  // products then report the desktop lost and are made again.
}

void WaylandDisplay::on_mode(void* data, wl_output*, uint32_t flags, int32_t width, int32_t height, int32_t) {
  if (flags & WL_OUTPUT_MODE_CURRENT) static_cast<WaylandDisplay*>(data)->output_size_ = Size{width, height};
}

void WaylandDisplay::on_name(void* data, wl_output*, const char* name) {
  static_cast<WaylandDisplay*>(data)->output_name_ = name ? name : "";
}

bool WaylandDisplay::failed() const { return !display_ || wl_display_get_error(display_) != 0; }

std::string WaylandDisplay::error() const {
  if (!display_) return "not connected";
  const int e = wl_display_get_error(display_);
  if (e == 0) return {};
  if (e == EPROTO) {
    const wl_interface* in = nullptr;
    uint32_t id = 0;
    const uint32_t code = wl_display_get_protocol_error(display_, &in, &id);
    return std::string("protocol error ") + std::to_string(code) + " on " + (in ? in->name : "an object");
  }
  if (e == EPIPE) return "the compositor closed the connection";
  return std::strerror(e);
}

int WaylandDisplay::fd() const { return wl_display_get_fd(display_); }

bool WaylandDisplay::flush() {
  // A full socket buffer is waited out; anything else is the connection's end.
  while (wl_display_flush(display_) < 0) {
    if (errno != EAGAIN) return false;
    pollfd p{fd(), POLLOUT, 0};
    if (poll(&p, 1, 1000) <= 0) return false;
  }
  return true;
}

bool WaylandDisplay::dispatch_ready() {
  if (failed()) return false;
  while (wl_display_prepare_read(display_) != 0)
    if (wl_display_dispatch_pending(display_) < 0) return false;
  if (!flush()) {
    wl_display_cancel_read(display_);
    return false;
  }
  pollfd p{fd(), POLLIN, 0};
  if (poll(&p, 1, 0) > 0) {
    if (wl_display_read_events(display_) < 0) return false;
  } else {
    wl_display_cancel_read(display_);
  }
  return wl_display_dispatch_pending(display_) >= 0;
}

WaylandDisplay::Wait WaylandDisplay::dispatch_until(const std::function<bool()>& done,
                                                    std::chrono::steady_clock::time_point deadline,
                                                    int wake_fd) {
  for (;;) {
    if (failed()) return Wait::kFailed;
    while (wl_display_prepare_read(display_) != 0)
      if (wl_display_dispatch_pending(display_) < 0) return Wait::kFailed;
    if (done()) {
      wl_display_cancel_read(display_);
      return Wait::kDone;
    }
    if (!flush()) {
      wl_display_cancel_read(display_);
      return Wait::kFailed;
    }
    const auto now = std::chrono::steady_clock::now();
    const auto left = std::max(deadline - now, std::chrono::steady_clock::duration::zero());
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    const timespec ts{time_t(ns / 1000000000), long(ns % 1000000000)};
    pollfd fds[2] = {{fd(), POLLIN, 0}, {wake_fd, POLLIN, 0}};
    const int n = ppoll(fds, wake_fd >= 0 ? 2 : 1, &ts, nullptr);
    if (n < 0 && errno != EINTR) {
      wl_display_cancel_read(display_);
      return Wait::kFailed;
    }
    if (n > 0 && (fds[0].revents & (POLLIN | POLLERR | POLLHUP))) {
      if (wl_display_read_events(display_) < 0) return Wait::kFailed;
    } else {
      wl_display_cancel_read(display_);
    }
    if (wl_display_dispatch_pending(display_) < 0) return Wait::kFailed;
    if (done()) return Wait::kDone;
    if (n > 0 && wake_fd >= 0 && (fds[1].revents & POLLIN)) {
      eventfd_t count;
      (void)eventfd_read(wake_fd, &count);
      return Wait::kWoken;
    }
    if (n == 0 || std::chrono::steady_clock::now() >= deadline) return Wait::kTimeout;
  }
}

bool WaylandDisplay::roundtrip() { return !failed() && wl_display_roundtrip(display_) >= 0; }

}  // namespace voxl::platform::wayland
