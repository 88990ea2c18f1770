// The accessibility bus of a desktop voxl starts itself (--a11y with its
// own Xvfb or --exec): at-spi-bus-launcher in a session bus of its own
// (dbus-run-session), which starts AT-SPI's bus daemon, publishes its
// address on the display's root window (AT_SPI_BUS), where toolkits and
// voxl find it, and starts the registry on first use.
//
// Threads: made and destroyed on the daemon's thread (ChildProcess).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/logging.h"

namespace voxl::platform {
class ChildProcess;
}

namespace voxl::platform::linux_desktop {

class AccessibilityBus {
 public:
  // Starts it for `display` (with `x_authority` when not empty) and waits
  // up to 15 s for the display to say where it is. Throws
  // std::runtime_error saying what is missing or what failed.
  AccessibilityBus(const std::string& display, const std::string& x_authority, const Logger& log);
  ~AccessibilityBus();  // stops the launcher, its bus and the registry
  AccessibilityBus(const AccessibilityBus&) = delete;
  AccessibilityBus& operator=(const AccessibilityBus&) = delete;

  // What a program started on the display needs in its environment for its
  // toolkit to publish its tree: Chromium and Qt only do when told.
  static std::vector<std::string> program_environment();

 private:
  std::unique_ptr<ChildProcess> launcher_;
};

}  // namespace voxl::platform::linux_desktop
