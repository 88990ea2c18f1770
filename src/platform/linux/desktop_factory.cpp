// The Linux side of the platform seam's one factory: X11 or Wayland, as
// backend_choice.h decides, said in the log.
#include <cstdlib>
#include <stdexcept>

#include "platform/linux/backend_choice.h"
#include "platform/linux/linux_desktop_environment.h"
#include "platform/linux/portal_desktop_environment.h"
#include "platform/linux/wayland_desktop_environment.h"
#include "platform/wayland/wayland_display.h"
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

// Whether the compositor lets clients capture it (wlr-screencopy); throws
// std::runtime_error when it cannot be reached.
bool offers_screencopy(const std::string& display) {
  wayland::WaylandDisplay probe(wayland::socket_path(display));
  return probe.screencopy() != nullptr;
}

}  // namespace

std::unique_ptr<DesktopEnvironment> make_desktop_environment(const DesktopOptions& options, const Logger& log) {
  const auto choice =
      linux_desktop::choose_backend(options, env("DISPLAY"), env("WAYLAND_DISPLAY"), x_display_answers);
  // As SHM falls back to GetImage: a compositor found in WAYLAND_DISPLAY that
  // lets no client capture it (GNOME, KDE) is shared through the desktop
  // portal. One named by the options is not: the portal shares the session
  // bus's desktop, which need not be that one.
  const bool named = options.backend == DesktopBackend::kWayland || !options.display.empty();
  if (choice.portal ||
      (choice.wayland && !options.wayland_compositor && !named && !offers_screencopy(choice.wayland_display))) {
    log->info("desktop: Wayland through the desktop portal ({})",
              choice.portal ? choice.why : choice.why + "; the compositor offers no wlr-screencopy");
    return std::make_unique<linux_desktop::PortalDesktopEnvironment>(options, log);
  }
  log->info("desktop: {} ({})", choice.wayland ? "Wayland" : "X11", choice.why);
  if (choice.wayland)
    return std::make_unique<linux_desktop::WaylandDesktopEnvironment>(options, choice.wayland_display, log);
  return std::make_unique<linux_desktop::LinuxDesktopEnvironment>(options, log);
}

}  // namespace voxl::platform
