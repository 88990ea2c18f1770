// The D-Bus connection to the desktop portal (org.freedesktop.portal.Desktop
// on the session bus) and the portal's ways of answering: a plain method
// call, and a request, whose answer comes later as the Response signal of a
// Request object whose path the caller's handle_token decides. The match
// for that signal is made before the call, so no answer is missed.
//
// Threads: one thread at a time (PortalSession serialises). Blocking: call()
// and request() wait for their answer up to their limit; send() never waits.
// Ownership: owns the connection and every message it returns.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <systemd/sd-bus.h>

#include "base/logging.h"

namespace voxl::platform::portal {

inline constexpr const char* kPortalName = "org.freedesktop.portal.Desktop";
inline constexpr const char* kPortalPath = "/org/freedesktop/portal/desktop";
inline constexpr const char* kScreenCast = "org.freedesktop.portal.ScreenCast";
inline constexpr const char* kRemoteDesktop = "org.freedesktop.portal.RemoteDesktop";

struct MessageUnref {
  void operator()(sd_bus_message* m) const { sd_bus_message_unref(m); }
};
using MessagePtr = std::unique_ptr<sd_bus_message, MessageUnref>;

// One entry of an a{sv} options dictionary.
struct PortalOption {
  std::string key;
  std::variant<uint32_t, bool, std::string> value;
};
using PortalOptions = std::vector<PortalOption>;

// The arguments before a method's options dictionary (a session's path...).
using LeadingArgs = std::function<void(sd_bus_message*)>;

struct PortalResponse {
  uint32_t code = 2;  // 0 granted, 1 the user cancelled, 2 otherwise ended
  MessagePtr results;  // positioned at the a{sv} of results
};

class PortalBus {
 public:
  // `address`: a D-Bus address; empty: the user's session bus. Throws
  // std::runtime_error when it cannot be reached.
  PortalBus(const std::string& address, Logger log);
  ~PortalBus();
  PortalBus(const PortalBus&) = delete;
  PortalBus& operator=(const PortalBus&) = delete;

  // A property of type u of the portal's `interface`; nullopt when the
  // portal lacks the interface (or the portal is not there).
  std::optional<uint32_t> property_u(const char* interface, const char* name);

  // Calls `interface.method(leading..., options + handle_token)` and waits
  // up to `limit` for the Response. Throws std::runtime_error when the call
  // is refused or no answer comes.
  PortalResponse request(const char* interface, const char* method, const LeadingArgs& leading, PortalOptions options,
                         std::chrono::milliseconds limit);
  // A plain call, answered within `limit`; the reply, positioned at its
  // first value. Throws std::runtime_error with the portal's error.
  MessagePtr call(const char* interface, const char* method, const LeadingArgs& args, std::chrono::milliseconds limit);
  // Sends without waiting; a refusal is logged when it comes (at most a
  // few times). False when the connection is gone.
  bool send(const char* interface, const char* method, const LeadingArgs& args);
  // Reads what has arrived (answers to send(), signals) without waiting.
  void process();

  // Closes the session at `path`, waiting briefly; errors are ignored (the
  // portal may have closed it already).
  void close_session(const std::string& path);
  // Calls `on_closed` once the session at `path` is closed by the portal.
  void watch_session(const std::string& path, std::function<void()> on_closed);

  // A new token for a handle ("voxl3").
  std::string token();
  sd_bus* get() { return bus_; }

 private:
  // Starts the portal where the bus can, and learns its unique name.
  void find_portal();
  // Processes, and waits for traffic until `done` or `deadline`.
  bool run_until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline);

  Logger log_;
  sd_bus* bus_ = nullptr;
  std::string portal_owner_;  // the portal's unique name (":1.7")
  std::string sender_;  // the unique name as the portal spells it in paths: "1_42"
  uint32_t next_token_ = 0;
  sd_bus_slot* closed_slot_ = nullptr;
  std::function<void()> on_closed_;
  int send_errors_logged_ = 0;
};

// Appends an a{sv} of `options`.
void append_options(sd_bus_message* m, const PortalOptions& options);

}  // namespace voxl::platform::portal
