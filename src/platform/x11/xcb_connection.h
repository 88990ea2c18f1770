// One XCB connection with the facts capture needs about it: the screen, the
// root window's pixel format, the MIT-SHM version, whether the transport is
// a local Unix socket and which process serves it.
//
// Threads: owned and used by one thread. Blocking: the constructor and
// sync() make round trips to the server.
#pragma once

#include <sys/types.h>

#include <optional>
#include <stdexcept>
#include <string>

#include <xcb/xcb.h>

#include "base/geometry.h"

namespace voxl::platform::x11 {

struct ShmVersion {
  int major = 0;
  int minor = 0;
  bool shared_pixmaps = false;
};

class XcbConnection {
 public:
  // `display` empty means $DISPLAY. Throws std::runtime_error with a
  // readable message when the display cannot be opened.
  explicit XcbConnection(const std::string& display);
  ~XcbConnection();
  XcbConnection(const XcbConnection&) = delete;
  XcbConnection& operator=(const XcbConnection&) = delete;

  xcb_connection_t* get() const { return c_; }
  xcb_screen_t* screen() const { return screen_; }
  xcb_window_t root() const { return screen_->root; }
  const std::string& display_name() const { return name_; }
  int fd() const { return xcb_get_file_descriptor(c_); }
  bool failed() const { return xcb_connection_has_error(c_) != 0; }

  Size root_size() const;  // asks the server: follows RandR changes
  int root_depth() const { return screen_->root_depth; }
  // Bits per pixel of ZPixmap images at the root depth (0 if unknown).
  int root_bits_per_pixel() const { return root_bpp_; }
  int scanline_pad() const { return scanline_pad_; }

  std::optional<ShmVersion> shm_version() const { return shm_; }
  // True when the connection is an AF_UNIX socket (file descriptors can be
  // passed and the server shares this machine's memory).
  bool is_local_socket() const { return local_; }
  // The server's process id from the socket's peer credentials.
  std::optional<pid_t> server_pid() const { return server_pid_; }

  // Round trip: every request sent before it has been processed.
  void sync() const;

 private:
  xcb_connection_t* c_ = nullptr;
  xcb_screen_t* screen_ = nullptr;
  std::string name_;
  int root_bpp_ = 0;
  int scanline_pad_ = 0;
  std::optional<ShmVersion> shm_;
  bool local_ = false;
  std::optional<pid_t> server_pid_;
};

}  // namespace voxl::platform::x11
