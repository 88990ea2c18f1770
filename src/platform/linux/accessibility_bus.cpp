#include "platform/linux/accessibility_bus.h"

#include <unistd.h>

#include <chrono>
#include <stdexcept>

#include "platform/child_process.h"
#include "platform/x11/root_property.h"

namespace voxl::platform::linux_desktop {
namespace {

constexpr const char* kLauncher = "/usr/libexec/at-spi-bus-launcher";

}  // namespace

AccessibilityBus::AccessibilityBus(const std::string& display, const std::string& x_authority, const Logger& log) {
  if (::access(kLauncher, X_OK) != 0)
    throw std::runtime_error(std::string("--a11y needs AT-SPI's bus launcher (") + kLauncher +
                             "), which is missing: install the at-spi2-core package");
  ChildOptions co;
  co.argv = {"dbus-run-session", "--", kLauncher, "--launch-immediately", "--a11y=1"};
  co.env = {"DISPLAY=" + display};
  if (!x_authority.empty()) co.env.push_back("XAUTHORITY=" + x_authority);
  try {
    launcher_ = std::make_unique<ChildProcess>(co);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("--a11y: the accessibility bus could not start (") + e.what() +
                             "); dbus-run-session comes with the dbus-daemon package");
  }
  std::string why;
  const auto address = x11::wait_root_string_property(
      display, "AT_SPI_BUS", std::chrono::steady_clock::now() + std::chrono::seconds(15), why);
  if (!address) {
    launcher_->stop();
    throw std::runtime_error("--a11y: the accessibility bus did not start on " + display + " (" + why + ")");
  }
  log->info("started the accessibility bus on {} (AT-SPI, {})", display, *address);
}

AccessibilityBus::~AccessibilityBus() = default;

std::vector<std::string> AccessibilityBus::program_environment() {
  // GTK publishes its tree whenever the bus is there; Chromium (and
  // Electron) when ACCESSIBILITY_ENABLED is set, Qt with its own variable,
  // Firefox when GNOME_ACCESSIBILITY is (else it asks the session bus,
  // which a program voxl starts may not have).
  return {"ACCESSIBILITY_ENABLED=1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1", "QT_ACCESSIBILITY=1", "GNOME_ACCESSIBILITY=1"};
}

}  // namespace voxl::platform::linux_desktop
