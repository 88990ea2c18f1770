// Which desktop voxl streams on Linux, X11 or Wayland, and why, from the
// options and the environment:
//
//   --wayland                 Wayland: voxl's own headless compositor
//   --xvfb                    X11: a private Xvfb
//   --backend portal          the desktop portal (GNOME, KDE)
//   --backend x11|wayland     that one (Wayland: --display or WAYLAND_DISPLAY
//                             names the compositor, else an error)
//   --display NAME            X11, unless NAME is a Wayland socket
//                             ("wayland-1", a path ending in one)
//   DISPLAY and WAYLAND_DISPLAY both set
//                             X11 when that display answers, else Wayland
//   only WAYLAND_DISPLAY      Wayland
//   only DISPLAY, or neither  X11 (neither: a private Xvfb)
//
// Pure but for `x_answers`, which the caller gives. Threads: any.
#pragma once

#include <functional>
#include <string>

#include "platform/desktop_environment.h"

namespace voxl::platform::linux_desktop {

struct BackendChoice {
  bool wayland = false;
  // Through the desktop portal (--backend portal); the factory also takes
  // it for a Wayland compositor without wlr-screencopy.
  bool portal = false;
  // The Wayland compositor's socket (a name or a path) when `wayland` and
  // voxl does not start its own.
  std::string wayland_display;
  std::string why;  // for the start line: "WAYLAND_DISPLAY is set and DISPLAY is not"
};

// Whether `name` looks like a Wayland socket rather than an X display.
bool names_wayland_socket(const std::string& name);

// Throws std::runtime_error when the options ask for Wayland and name no
// compositor.
BackendChoice choose_backend(const DesktopOptions& options, const std::string& env_display,
                             const std::string& env_wayland,
                             const std::function<bool(const std::string&)>& x_answers);

}  // namespace voxl::platform::linux_desktop
