#include "app/desktop_options.h"

namespace voxl::app {

platform::DesktopOptions desktop_options(const Config& c) {
  platform::DesktopOptions o;
  o.display = c.display;
  o.virtual_display = c.xvfb;
  o.backend = c.backend == BackendName::kX11       ? platform::DesktopBackend::kX11
              : c.backend == BackendName::kWayland ? platform::DesktopBackend::kWayland
              : c.backend == BackendName::kPortal  ? platform::DesktopBackend::kPortal
                                                   : platform::DesktopBackend::kAuto;
  o.wayland_compositor = c.wayland;
  o.compositor_user = c.wayland_user;
  o.exec = c.exec;
  o.resize = c.resize;
  o.accessibility = c.a11y;
  if (c.capture_region) {
    o.target.kind = platform::CaptureTarget::Kind::kRegion;
    o.target.region = *c.capture_region;
  } else if (c.capture_window) {
    o.target.kind = platform::CaptureTarget::Kind::kWindow;
    o.target.window = c.capture_window;
  }
  o.audio_device = c.audio_device;
  o.microphone_device = platform::kMicrophoneIsFifo ? c.microphone_fifo : c.microphone_device;
  return o;
}

}  // namespace voxl::app
