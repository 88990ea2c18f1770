#include "platform/linux/backend_choice.h"

#include <stdexcept>

namespace voxl::platform::linux_desktop {

bool names_wayland_socket(const std::string& name) {
  const size_t slash = name.rfind('/');
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  return base.rfind("wayland-", 0) == 0 && name.find(':') == std::string::npos;
}

BackendChoice choose_backend(const DesktopOptions& o, const std::string& env_display, const std::string& env_wayland,
                             const std::function<bool(const std::string&)>& x_answers) {
  BackendChoice c;
  const auto wayland = [&c](std::string display, std::string why) {
    c.wayland = true;
    c.wayland_display = std::move(display);
    c.why = std::move(why);
    return c;
  };
  const auto x11 = [&c](std::string why) {
    c.why = std::move(why);
    return c;
  };
  if (o.wayland_compositor) return wayland("", "voxl's own headless compositor (--wayland)");
  if (o.virtual_display) return x11("a private Xvfb (--xvfb)");
  if (o.backend == DesktopBackend::kX11) return x11("--backend x11");
  if (o.backend == DesktopBackend::kPortal) {
    c.wayland = true;
    c.portal = true;
    c.why = "--backend portal";
    return c;
  }
  if (o.backend == DesktopBackend::kWayland) {
    if (!o.display.empty()) return wayland(o.display, "--backend wayland, the compositor named by --display");
    if (!env_wayland.empty()) return wayland(env_wayland, "--backend wayland, the compositor of WAYLAND_DISPLAY");
    throw std::runtime_error("--backend wayland names no compositor: set WAYLAND_DISPLAY, give its socket with "
                             "--display, or start voxl's own with --wayland");
  }
  if (!o.display.empty()) {
    if (names_wayland_socket(o.display)) return wayland(o.display, "--display names a Wayland socket");
    return x11("--display names an X display");
  }
  if (!env_display.empty() && !env_wayland.empty()) {
    if (x_answers(env_display))
      return x11("DISPLAY and WAYLAND_DISPLAY are both set: X11 unless --backend wayland");
    return wayland(env_wayland, "WAYLAND_DISPLAY is set and DISPLAY " + env_display + " does not answer");
  }
  if (!env_wayland.empty()) return wayland(env_wayland, "WAYLAND_DISPLAY is set and DISPLAY is not");
  if (!env_display.empty()) return x11("DISPLAY is set");
  return x11("neither DISPLAY nor WAYLAND_DISPLAY is set: a private Xvfb");
}

}  // namespace voxl::platform::linux_desktop
