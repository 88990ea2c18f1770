// The Linux side of the platform seam's one factory: X11 or Wayland, as
// backend_choice.h decides, said in the log.
#include <cstdlib>
#include <stdexcept>

#include "platform/linux/backend_choice.h"
#include "platform/linux/linux_desktop_environment.h"
#include "platform/linux/wayland_desktop_environment.h"
#include "platform/x11/xcb_connection.h"

namespace voxl::platform {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool x_display_answers(const std::string& name) {
  try {
    x11::XcbConnection c(name);
    return true;
  } catch (const std::runtime_error&) {
    return false;
  }
}

}  // namespace

std::unique_ptr<DesktopEnvironment> make_desktop_environment(const DesktopOptions& options, const Logger& log) {
  const auto choice =
      linux_desktop::choose_backend(options, env("DISPLAY"), env("WAYLAND_DISPLAY"), x_display_answers);
  log->info("desktop: {} ({})", choice.wayland ? "Wayland" : "X11", choice.why);
  if (choice.wayland)
    return std::make_unique<linux_desktop::WaylandDesktopEnvironment>(options, choice.wayland_display, log);
  return std::make_unique<linux_desktop::LinuxDesktopEnvironment>(options, log);
}

}  // namespace voxl::platform
