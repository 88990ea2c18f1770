// The connection to the accessibility bus (AT-SPI's own D-Bus daemon,
// separate from the session bus), found afresh at each (re)connect: the
// AT_SPI_BUS_ADDRESS variable, else the X display's AT_SPI_BUS root
// property (set by at-spi-bus-launcher), else org.a11y.Bus on the session
// bus.
//
// Threads: one thread (the accessibility worker). Blocking: get() connects
// (local sockets; a hung session bus is bounded by sd-bus's call timeout).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <systemd/sd-bus.h>

#include "platform/atspi/direct_buses.h"

namespace voxl::platform::atspi {

class AtspiConnection {
 public:
  // The X display's AT_SPI_BUS property, or nullopt (with `why`).
  using RootProperty = std::function<std::optional<std::string>(std::string& why)>;

  explicit AtspiConnection(RootProperty root_property);
  ~AtspiConnection();
  AtspiConnection(const AtspiConnection&) = delete;
  AtspiConnection& operator=(const AtspiConnection&) = delete;

  // The connection, opened if it is not. Throws std::runtime_error saying
  // where the bus was looked for and why it could not be reached.
  sd_bus* get();
  // The direct connections to applications, closed with the bus's.
  DirectBuses& direct() { return direct_; }
  // Closes it and the direct ones (a call left unanswered, or the bus
  // failed); the next get() connects again.
  void reset();

 private:
  std::optional<std::string> session_bus_address(std::string& why) const;

  RootProperty root_property_;
  sd_bus* bus_ = nullptr;
  DirectBuses direct_;
};

}  // namespace voxl::platform::atspi
