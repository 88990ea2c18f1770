#include "platform/x11/xcb_connection.h"

#include <sys/socket.h>

#include <cstdlib>

#include <xcb/shm.h>

#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

namespace {

const char* connection_error_text(int code) {
  switch (code) {
    case XCB_CONN_ERROR: return "socket, pipe or stream error";
    case XCB_CONN_CLOSED_EXT_NOTSUPPORTED: return "extension not supported";
    case XCB_CONN_CLOSED_MEM_INSUFFICIENT: return "out of memory";
    case XCB_CONN_CLOSED_REQ_LEN_EXCEED: return "request length exceeded";
    case XCB_CONN_CLOSED_PARSE_ERR: return "cannot parse the display name";
    case XCB_CONN_CLOSED_INVALID_SCREEN: return "no such screen";
    default: return "connection refused or authorisation failed";
  }
}

}  // namespace

XcbConnection::XcbConnection(const std::string& display) {
  const char* env = std::getenv("DISPLAY");
  name_ = display.empty() ? (env ? env : "") : display;
  if (name_.empty()) throw std::runtime_error("no X display: DISPLAY is not set and none was given");
  int screen_num = 0;
  c_ = xcb_connect(name_.c_str(), &screen_num);
  if (const int err = xcb_connection_has_error(c_)) {
    xcb_disconnect(c_);
    c_ = nullptr;
    throw std::runtime_error("cannot open X display " + name_ + ": " + connection_error_text(err));
  }
  const xcb_setup_t* setup = xcb_get_setup(c_);
  auto it = xcb_setup_roots_iterator(setup);
  for (int i = 0; i < screen_num && it.rem; ++i) xcb_screen_next(&it);
  if (!it.rem) {
    xcb_disconnect(c_);
    throw std::runtime_error("X display " + name_ + " has no screen " + std::to_string(screen_num));
  }
  screen_ = it.data;

  for (auto f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f)) {
    if (f.data->depth == screen_->root_depth) {
      root_bpp_ = f.data->bits_per_pixel;
      scanline_pad_ = f.data->scanline_pad;
    }
  }

  const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c_, &xcb_shm_id);
  if (ext && ext->present) {
    XcbPtr<xcb_shm_query_version_reply_t> v(
        xcb_shm_query_version_reply(c_, xcb_shm_query_version(c_), nullptr));
    if (v) shm_ = ShmVersion{v->major_version, v->minor_version, v->shared_pixmaps != 0};
  }

  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (getsockname(fd(), reinterpret_cast<sockaddr*>(&addr), &len) == 0 && addr.ss_family == AF_UNIX) {
    local_ = true;
    ucred cred{};
    socklen_t clen = sizeof cred;
    if (getsockopt(fd(), SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 && cred.pid > 0)
      server_pid_ = cred.pid;
  }
}

XcbConnection::~XcbConnection() {
  if (c_) xcb_disconnect(c_);
}

Size XcbConnection::root_size() const {
  XcbPtr<xcb_get_geometry_reply_t> g(xcb_get_geometry_reply(c_, xcb_get_geometry(c_, root()), nullptr));
  if (!g) return {screen_->width_in_pixels, screen_->height_in_pixels};
  return {g->width, g->height};
}

void XcbConnection::sync() const {
  XcbPtr<xcb_get_input_focus_reply_t> r(xcb_get_input_focus_reply(c_, xcb_get_input_focus(c_), nullptr));
}

}  // namespace voxl::platform::x11
