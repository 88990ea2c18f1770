#include "platform/x11/server_grab.h"

#include <cstdlib>

namespace voxl::platform::x11 {

ServerGrab::ServerGrab(xcb_connection_t* c) : c_(c) {
  xcb_grab_server(c_);
  // Any reply will do: it comes once the grab has been processed.
  std::free(xcb_get_input_focus_reply(c_, xcb_get_input_focus(c_), nullptr));
}

ServerGrab::~ServerGrab() {
  xcb_ungrab_server(c_);
  xcb_flush(c_);
}

}  // namespace voxl::platform::x11
