#include "platform/x11/root_property.h"

#include <poll.h>

#include <cstring>
#include <exception>

#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

namespace {

xcb_atom_t atom_of(xcb_connection_t* c, const char* name, bool only_if_exists) {
  XcbPtr<xcb_intern_atom_reply_t> atom(
      xcb_intern_atom_reply(c, xcb_intern_atom(c, only_if_exists, uint16_t(std::strlen(name)), name), nullptr));
  return atom ? atom->atom : xcb_atom_t(XCB_ATOM_NONE);
}

std::optional<std::string> read(const XcbConnection& x, xcb_atom_t atom) {
  constexpr uint32_t kWords = 1024;
  xcb_connection_t* c = x.get();
  XcbPtr<xcb_get_property_reply_t> r(
      xcb_get_property_reply(c, xcb_get_property(c, 0, x.root(), atom, XCB_GET_PROPERTY_TYPE_ANY, 0, kWords), nullptr));
  if (!r || r->format != 8 || xcb_get_property_value_length(r.get()) <= 0) return std::nullopt;
  std::string value(static_cast<const char*>(xcb_get_property_value(r.get())),
                    size_t(xcb_get_property_value_length(r.get())));
  if (const size_t nul = value.find('\0'); nul != std::string::npos) value.resize(nul);
  return value;
}

}  // namespace

std::optional<std::string> root_string_property(const std::string& display, const char* name, std::string& why) {
  try {
    const XcbConnection x(display);
    const xcb_atom_t atom = atom_of(x.get(), name, true);
    auto value = atom == XCB_ATOM_NONE ? std::nullopt : read(x, atom);
    if (!value) why = std::string(name) + " is not set on the display";
    return value;
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

std::optional<std::string> wait_root_string_property(const std::string& display, const char* name,
                                                     std::chrono::steady_clock::time_point deadline,
                                                     std::string& why) {
  try {
    const XcbConnection x(display);
    xcb_connection_t* c = x.get();
    const xcb_atom_t atom = atom_of(c, name, false);
    const uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_change_window_attributes(c, x.root(), XCB_CW_EVENT_MASK, &mask);
    xcb_flush(c);
    for (;;) {
      // Read after the mask is set: a change after this read is an event.
      if (auto value = read(x, atom)) return value;
      bool changed = false;
      while (!changed) {
        while (XcbPtr<xcb_generic_event_t> e{xcb_poll_for_event(c)})
          changed = changed || (e->response_type & 0x7f) == XCB_PROPERTY_NOTIFY;
        if (changed) break;
        if (x.failed()) {
          why = "the display connection failed";
          return std::nullopt;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
          why = std::string(name) + " was not set on the display in time";
          return std::nullopt;
        }
        pollfd p{x.fd(), POLLIN, 0};
        ::poll(&p, 1, int(left.count()) + 1);
      }
    }
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace voxl::platform::x11
