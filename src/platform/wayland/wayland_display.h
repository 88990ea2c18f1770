// One connection to a Wayland compositor with the globals voxl uses bound:
// wl_shm, the first wl_output (its current mode is the desktop's size), the
// first wl_seat, and the wlroots managers where the compositor has them
// (screencopy, virtual keyboard, virtual pointer, data control). Also the one way voxl
// waits for a compositor's answer: dispatch_until(), bounded by a deadline
// and a wake descriptor, never a busy loop.
//
// Threads: owned and used by one thread (libwayland's queues are not shared
// between voxl's threads: every product has a connection of its own).
// Blocking: the constructor makes two round trips; dispatch_until() blocks
// up to its deadline.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/geometry.h"

struct wl_display;
struct wl_registry;
struct wl_shm;
struct wl_output;
struct wl_seat;
struct zwlr_screencopy_manager_v1;
struct zwp_virtual_keyboard_manager_v1;
struct zwlr_virtual_pointer_manager_v1;
struct zwlr_data_control_manager_v1;

namespace voxl::platform::wayland {

// Where a Wayland socket is: an absolute path, or a name in
// $XDG_RUNTIME_DIR; empty is $WAYLAND_DISPLAY (then "wayland-0").
std::string socket_path(const std::string& name);

class WaylandDisplay {
 public:
  // Connects to `name` (see socket_path) and binds the globals. Throws
  // std::runtime_error with a readable message when the compositor cannot
  // be reached or has no output.
  explicit WaylandDisplay(const std::string& name);
  ~WaylandDisplay();
  WaylandDisplay(const WaylandDisplay&) = delete;
  WaylandDisplay& operator=(const WaylandDisplay&) = delete;

  wl_display* get() const { return display_; }
  wl_shm* shm() const { return shm_; }
  wl_output* output() const { return output_; }
  wl_seat* seat() const { return seat_; }
  // Null when the compositor lacks the protocol.
  zwlr_screencopy_manager_v1* screencopy() const { return screencopy_; }
  uint32_t screencopy_version() const { return screencopy_version_; }
  zwp_virtual_keyboard_manager_v1* virtual_keyboard() const { return virtual_keyboard_; }
  zwlr_virtual_pointer_manager_v1* virtual_pointer() const { return virtual_pointer_; }
  uint32_t virtual_pointer_version() const { return virtual_pointer_version_; }
  zwlr_data_control_manager_v1* data_control() const { return data_control_; }

  // A global the compositor offers that this connection did not bind (for
  // products that bind it themselves, their listener set before its first
  // events): its name and version, nullopt when there is none.
  struct Global {
    uint32_t name = 0;
    std::string interface;
    uint32_t version = 0;
  };
  std::optional<Global> global(const std::string& interface) const;
  wl_registry* registry() const { return registry_; }

  // The output's current mode (updated as events are dispatched) and name
  // ("HEADLESS-1"; empty where the compositor does not say).
  Size output_size() const { return output_size_; }
  const std::string& output_name() const { return output_name_; }
  // The socket this connection reached, for the log.
  const std::string& path() const { return path_; }

  enum class Wait { kDone, kTimeout, kWoken, kFailed };
  // Sends what is queued and dispatches events until `done()` is true,
  // `deadline` passes, `wake_fd` (an eventfd, or -1) becomes readable (it is
  // then drained), or the connection fails.
  Wait dispatch_until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline,
                      int wake_fd = -1);
  // Reads and dispatches whatever has arrived, without blocking; false when
  // the connection failed.
  bool dispatch_ready();
  // Sends the requests made so far, without reading anything (also from
  // inside an event's handler); false when the connection failed.
  bool send_requests() { return !failed() && flush(); }
  // Every request sent so far has been handled; false when the connection
  // failed.
  bool roundtrip();
  // The connection is gone (the compositor exited or sent an error).
  bool failed() const;
  // Why, for the log; empty while it works.
  std::string error() const;
  int fd() const;

 private:
  static void on_global(void* self, wl_registry* registry, uint32_t name, const char* interface, uint32_t version);
  static void on_global_remove(void* self, wl_registry* registry, uint32_t name);
  static void on_mode(void* self, wl_output* output, uint32_t flags, int32_t width, int32_t height, int32_t refresh);
  static void on_name(void* self, wl_output* output, const char* name);
  bool flush();
  // Releases the globals and the connection (the destructor, and a
  // constructor that fails).
  void close();

  std::string path_;
  wl_display* display_ = nullptr;
  wl_registry* registry_ = nullptr;
  wl_shm* shm_ = nullptr;
  wl_output* output_ = nullptr;
  wl_seat* seat_ = nullptr;
  zwlr_screencopy_manager_v1* screencopy_ = nullptr;
  uint32_t screencopy_version_ = 0;
  zwp_virtual_keyboard_manager_v1* virtual_keyboard_ = nullptr;
  zwlr_virtual_pointer_manager_v1* virtual_pointer_ = nullptr;
  uint32_t virtual_pointer_version_ = 0;
  zwlr_data_control_manager_v1* data_control_ = nullptr;
  Size output_size_;
  std::string output_name_;
  std::vector<Global> globals_;  // those offered, up to 256
};

}  // namespace voxl::platform::wayland
