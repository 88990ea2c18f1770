#include "portal_dbus.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace voxl::testing::portal {

namespace {

// Reads the value of one dictionary entry (the variant not yet entered)
// into `out` when it has signature `want`; -EINVAL with `e` set otherwise.
template <typename T>
int read_variant(sd_bus_message* m, const std::string& key, const char* want, std::optional<T>& out,
                 sd_bus_error* e) {
  const char* contents = nullptr;
  int r = sd_bus_message_peek_type(m, nullptr, &contents);
  if (r < 0) return invalid_args(e, "cannot read option " + key);
  if (!contents || std::strcmp(contents, want) != 0)
    return invalid_args(e, "option " + key + " must be of type " + want);
  if constexpr (std::is_same_v<T, std::string>) {
    const char* s = nullptr;
    r = sd_bus_message_read(m, "v", want, &s);
    if (r >= 0) out = std::string(s);
  } else if constexpr (std::is_same_v<T, bool>) {
    int b = 0;
    r = sd_bus_message_read(m, "v", want, &b);
    if (r >= 0) out = b != 0;
  } else {
    T v{};
    r = sd_bus_message_read(m, "v", want, &v);
    if (r >= 0) out = v;
  }
  return r < 0 ? invalid_args(e, "cannot read option " + key) : 0;
}

int read_entry(sd_bus_message* m, CallOptions& o, sd_bus_error* e) {
  const char* key_c = nullptr;
  if (sd_bus_message_read(m, "s", &key_c) < 0) return invalid_args(e, "cannot read an option's name");
  const std::string key(key_c);
  if (key == "handle_token") return read_variant(m, key, "s", o.handle_token, e);
  if (key == "session_handle_token") return read_variant(m, key, "s", o.session_handle_token, e);
  if (key == "restore_token") return read_variant(m, key, "s", o.restore_token, e);
  if (key == "types") return read_variant(m, key, "u", o.types, e);
  if (key == "cursor_mode") return read_variant(m, key, "u", o.cursor_mode, e);
  if (key == "persist_mode") return read_variant(m, key, "u", o.persist_mode, e);
  if (key == "multiple") return read_variant(m, key, "b", o.multiple, e);
  return sd_bus_message_skip(m, "v") < 0 ? invalid_args(e, "cannot skip option " + key) : 0;
}

}  // namespace

int read_options(sd_bus_message* m, CallOptions& o, sd_bus_error* e) {
  if (sd_bus_message_enter_container(m, 'a', "{sv}") <= 0) return invalid_args(e, "the options must be a{sv}");
  for (;;) {
    const int r = sd_bus_message_enter_container(m, 'e', "sv");
    if (r < 0) return invalid_args(e, "cannot read the options");
    if (r == 0) break;
    if (const int q = read_entry(m, o, e); q < 0) return q;
    if (sd_bus_message_exit_container(m) < 0) return invalid_args(e, "cannot read the options");
  }
  if (sd_bus_message_exit_container(m) < 0) return invalid_args(e, "cannot read the options");
  for (const auto* token : {&o.handle_token, &o.session_handle_token})
    if (*token && !valid_path_element(**token))
      return invalid_args(e, "'" + **token + "' cannot be an element of an object path");
  return 0;
}

bool valid_path_element(const std::string& s) {
  if (s.empty() || s.size() > 255) return false;
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

std::string handle_path(const char* kind, const char* sender, const std::string& token) {
  std::string who(sender && sender[0] == ':' ? sender + 1 : sender ? sender : "");
  for (char& c : who)
    if (c == '.') c = '_';
  return std::string("/org/freedesktop/portal/desktop/") + kind + "/" + who + "/" + token;
}

int emit_response(sd_bus* bus, const std::string& destination, const std::string& path, uint32_t response,
                  const ResultsWriter& results) {
  sd_bus_message* signal = nullptr;
  int r = sd_bus_message_new_signal(bus, &signal, path.c_str(), "org.freedesktop.portal.Request", "Response");
  if (r < 0) return r;
  if (r >= 0) r = sd_bus_message_set_destination(signal, destination.c_str());
  if (r >= 0) r = sd_bus_message_append(signal, "u", response);
  if (r >= 0) r = sd_bus_message_open_container(signal, 'a', "{sv}");
  if (r >= 0 && results) r = results(signal);
  if (r >= 0) r = sd_bus_message_close_container(signal);
  if (r >= 0) r = sd_bus_send(bus, signal, nullptr);
  sd_bus_message_unref(signal);
  return r;
}

int emit_closed(sd_bus* bus, const std::string& destination, const std::string& path) {
  sd_bus_message* signal = nullptr;
  int r = sd_bus_message_new_signal(bus, &signal, path.c_str(), "org.freedesktop.portal.Session", "Closed");
  if (r < 0) return r;
  if (r >= 0) r = sd_bus_message_set_destination(signal, destination.c_str());
  if (r >= 0) r = sd_bus_message_append(signal, "a{sv}", 0);
  if (r >= 0) r = sd_bus_send(bus, signal, nullptr);
  sd_bus_message_unref(signal);
  return r;
}

void say(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vprintf(format, args);
  va_end(args);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

int refuse(sd_bus_error* e, const char* name, const std::string& message) {
  return sd_bus_error_set(e, name, message.c_str());
}

int access_denied(sd_bus_error* e, const std::string& message) {
  return refuse(e, SD_BUS_ERROR_ACCESS_DENIED, message);
}

int invalid_args(sd_bus_error* e, const std::string& message) {
  return refuse(e, SD_BUS_ERROR_INVALID_ARGS, message);
}

}  // namespace voxl::testing::portal
