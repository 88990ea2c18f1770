// RemoteDesktop's Notify* methods of the test portal: each checks the
// session (the caller's, a remote desktop one, started, with the device it
// needs) and its arguments, then prints what it was told on stdout.
#include <cerrno>
#include <cmath>
#include <cstring>

#include "portal_dbus.h"
#include "portal_service.h"

namespace voxl::testing::portal {

namespace {

bool is_state(uint32_t state) { return state == 0 || state == 1; }

// The two doubles of a motion or an axis, finite.
int read_pair(sd_bus_message* m, double& a, double& b, sd_bus_error* e) {
  if (sd_bus_message_read(m, "dd", &a, &b) < 0) return invalid_args(e, "cannot read the values");
  if (!std::isfinite(a) || !std::isfinite(b)) return invalid_args(e, "the values must be finite");
  return 0;
}

int read_code_state(sd_bus_message* m, int32_t& code, uint32_t& state, sd_bus_error* e) {
  if (sd_bus_message_read(m, "iu", &code, &state) < 0) return invalid_args(e, "cannot read the values");
  if (!is_state(state)) return invalid_args(e, "the state must be 0 (released) or 1 (pressed)");
  return 0;
}

int keyboard(sd_bus_message* m, const std::string& member, sd_bus_error* e) {
  int32_t code = 0;
  uint32_t state = 0;
  if (const int r = read_code_state(m, code, state, e); r < 0) return r;
  say("%s %d %u", member == "NotifyKeyboardKeysym" ? "keysym" : "keycode", code, state);
  return 1;
}

int pointer(sd_bus_message* m, const Session& s, const std::string& member, sd_bus_error* e) {
  double a = 0, b = 0;
  if (member == "NotifyPointerMotionAbsolute") {
    uint32_t stream = 0;
    if (sd_bus_message_read(m, "u", &stream) < 0) return invalid_args(e, "cannot read the stream");
    if (!s.sources_selected || stream != s.node) return invalid_args(e, "Invalid stream");
    if (const int r = read_pair(m, a, b, e); r < 0) return r;
    say("motion %u %g %g", stream, a, b);
  } else if (member == "NotifyPointerMotion") {
    if (const int r = read_pair(m, a, b, e); r < 0) return r;
    say("relmotion %g %g", a, b);
  } else if (member == "NotifyPointerAxis") {
    if (const int r = read_pair(m, a, b, e); r < 0) return r;
    say("smoothaxis %g %g", a, b);
  } else if (member == "NotifyPointerAxisDiscrete") {
    uint32_t axis = 0;
    int32_t steps = 0;
    if (sd_bus_message_read(m, "ui", &axis, &steps) < 0) return invalid_args(e, "cannot read the values");
    if (axis > 1) return invalid_args(e, "the axis must be 0 (vertical) or 1 (horizontal)");
    say("axis %u %d", axis, steps);
  } else {  // NotifyPointerButton
    int32_t button = 0;
    uint32_t state = 0;
    if (const int r = read_code_state(m, button, state, e); r < 0) return r;
    say("button %d %u", button, state);
  }
  return 1;
}

}  // namespace

int PortalService::notify(sd_bus_message* m, sd_bus_error* e) {
  const char* path = nullptr;
  if (sd_bus_message_read(m, "o", &path) < 0) return invalid_args(e, "no session");
  Session* s = callers_session(m, path, e);
  if (!s) return -EACCES;
  if (!s->remote_desktop) return access_denied(e, "Invalid session");
  if (!s->started) return access_denied(e, "the session has not started");
  const std::string member = sd_bus_message_get_member(m);
  const bool keys = member.rfind("NotifyKeyboard", 0) == 0;
  if (!(s->devices & (keys ? kKeyboard : kPointer)))
    return access_denied(e, keys ? "the keyboard was not granted" : "the pointer was not granted");
  CallOptions o;
  if (const int r = read_options(m, o, e); r < 0) return r;
  const int r = keys ? keyboard(m, member, e) : pointer(m, *s, member, e);
  return r < 0 ? r : sd_bus_reply_method_return(m, "");
}

}  // namespace voxl::testing::portal
