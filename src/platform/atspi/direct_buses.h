// Direct connections to applications. atk-bridge (GTK 3, Chromium, Firefox)
// listens on a socket of its own, whose address
// org.a11y.atspi.Application.GetApplicationBusAddress gives, and answers
// there what it answers on the accessibility bus. Questions sent there skip
// the bus's daemon, which otherwise reads and writes every question and
// answer once more: reading a browser's tree of 700 elements, that daemon
// used more CPU than voxl itself.
//
// An application that refuses the connection (it runs as another user) or
// drops it is asked through the bus again (CallBatch does that).
//
// Threads: the accessibility worker, like AtspiConnection, which owns this.
// Ownership: owns the connections; reset() closes them all, which must
// happen whenever the bus connection is reset (a batch left calls in
// flight on them).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <systemd/sd-bus.h>

namespace voxl::platform::atspi {

// The socket file a D-Bus address names, for an address that is "unix:"
// with one absolute path= (no escapes) and nothing but a guid= beside it;
// nullopt for anything else, which is refused: sd-bus would also run a
// program ("unixexec:"), reach over the network ("tcp:") or a socket no
// file stands for ("abstract=", whose owner cannot be checked).
std::optional<std::string> local_socket_path(std::string_view address);

class DirectBuses {
 public:
  // Open connections at most; applications past it are asked on the bus.
  static constexpr size_t kMaxOpen = 64;

  DirectBuses() = default;
  ~DirectBuses();
  DirectBuses(const DirectBuses&) = delete;
  DirectBuses& operator=(const DirectBuses&) = delete;

  // Starts a connection to the application `name` (its unique name on the
  // bus) at `address`, unless one is open or failed; it authenticates
  // while the first calls wait in it. An address local_socket_path refuses,
  // or a socket that is not of voxl's own user, is not connected to (the
  // application is asked on the bus).
  void open(const std::string& name, const std::string& address);
  // The open connection to `name`, or null.
  sd_bus* find(const std::string& name) const;
  // Stops using the connection `bus` (it failed or refused us), and does
  // not open another to its application until reset(). It is closed by
  // close_failed(), not here: this may run inside one of its callbacks.
  void fail(sd_bus* bus);
  // Closes the connections fail() named.
  void close_failed();
  // The open connections.
  std::vector<sd_bus*> all() const;
  // Closes every connection, and forgets which failed.
  void reset();

 private:
  struct Entry {
    sd_bus* bus = nullptr;
    bool failed = false;
  };
  std::map<std::string, Entry> entries_;
};

}  // namespace voxl::platform::atspi
