// sd-bus helpers of the test portal (voxl-test-portal): the a{sv} options
// its callers pass, checked for their types; the object paths of requests
// and sessions; the Request.Response and Session.Closed signals, sent to
// the caller alone; and the lines it prints.
//
// Threads: the portal's loop. Ownership: none kept; messages are the
// caller's.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <systemd/sd-bus.h>

namespace voxl::testing::portal {

// The options the portal understands; others are skipped.
struct CallOptions {
  std::optional<std::string> handle_token, session_handle_token, restore_token;
  std::optional<uint32_t> types, cursor_mode, persist_mode;
  std::optional<bool> multiple;
};

// Reads the a{sv} at `m`'s position. A known key with a value of another
// type or a token that is no object path element: -EINVAL and `e` set
// (org.freedesktop.DBus.Error.InvalidArgs).
int read_options(sd_bus_message* m, CallOptions& options, sd_bus_error* e);

// [A-Za-z0-9_]+, as an element of an object path must be.
bool valid_path_element(const std::string& s);

// "/org/freedesktop/portal/desktop/<kind>/<sender>/<token>": the sender's
// unique name without its ':' and with '_' for '.'.
std::string handle_path(const char* kind, const char* sender, const std::string& token);

// Fills a results dictionary (the a{sv} is open); < 0 on failure.
using ResultsWriter = std::function<int(sd_bus_message*)>;

// org.freedesktop.portal.Request.Response(u response, a{sv} results) at
// `path`, to `destination` only.
int emit_response(sd_bus* bus, const std::string& destination, const std::string& path, uint32_t response,
                  const ResultsWriter& results = {});
// org.freedesktop.portal.Session.Closed(a{sv}) at `path`, to `destination`.
int emit_closed(sd_bus* bus, const std::string& destination, const std::string& path);

// One line on stdout, flushed at once: the tests read it through a pipe.
void say(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Sets `e` to the named error and returns its negative errno, as sd-bus
// method handlers do.
int refuse(sd_bus_error* e, const char* name, const std::string& message);
int access_denied(sd_bus_error* e, const std::string& message);
int invalid_args(sd_bus_error* e, const std::string& message);

}  // namespace voxl::testing::portal
