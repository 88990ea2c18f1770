#include "platform/linux/wayland_desktop_environment.h"

#include <stdexcept>

#include "platform/child_process.h"
#include "platform/pulse/pulse_microphone_sink.h"
#include "platform/pulse/pulse_source.h"
#include "platform/wayland/data_control_clipboard.h"
#include "platform/wayland/headless_compositor.h"
#include "platform/wayland/output_resizer.h"
#include "platform/wayland/screencopy_capturer.h"
#include "platform/wayland/screencopy_damage_watcher.h"
#include "platform/wayland/virtual_input_injector.h"
#include "platform/wayland/wayland_display.h"

namespace voxl::platform::linux_desktop {

WaylandDesktopEnvironment::WaylandDesktopEnvironment(DesktopOptions options, std::string display, Logger log)
    : options_(std::move(options)), log_(std::move(log)) {
  if (options_.target.kind == CaptureTarget::Kind::kWindow)
    throw std::runtime_error("on Wayland voxl captures the output or a region of it (--capture-region): "
                             "--capture-window is X11's, as a Wayland compositor tells clients nothing of other "
                             "programs' windows");
  if (options_.wayland_compositor) {
    wayland::HeadlessCompositorOptions co;
    co.size = *options_.wayland_compositor;
    co.user = options_.compositor_user;
    compositor_ = std::make_unique<wayland::HeadlessCompositor>(co);
    display_ = compositor_->socket_path();
    log_->info("started a headless Wayland compositor (sway, {}x{}) on {}{}", co.size.width, co.size.height,
               display_, compositor_->user().empty() ? "" : ", as " + compositor_->user() + " since sway refuses root");
  } else {
    display_ = wayland::socket_path(display);
  }
  {
    // Reached, and capturable, before anything else starts.
    wayland::WaylandDisplay probe(display_);
    if (!probe.screencopy())
      throw std::runtime_error("the Wayland compositor at " + display_ +
                               " does not let clients capture the screen (no wlr-screencopy): voxl streams wlroots "
                               "compositors such as sway, cage, river and labwc directly, and GNOME and KDE "
                               "through the desktop portal (--backend portal)");
    log_->info("Wayland output {} {}x{}; input {}", probe.output_name().empty() ? "(unnamed)" : probe.output_name(),
               probe.output_size().width, probe.output_size().height,
               probe.virtual_keyboard() && probe.virtual_pointer() ? "through the virtual keyboard and pointer"
                                                                    : "not offered by the compositor");
  }
  if (!options_.exec.empty()) {
    ChildOptions co;
    co.argv = {"/bin/sh", "-c", options_.exec};
    if (compositor_) {
      co.argv = compositor_->as_user(co.argv);
      co.env = compositor_->program_environment();
    } else {
      co.env = {"WAYLAND_DISPLAY=" + display_};
    }
    co.quiet = false;
    program_ = std::make_unique<ChildProcess>(co);
    log_->info("started `{}` on {} (pid {})", options_.exec, display_, program_->pid());
  }
}

WaylandDesktopEnvironment::~WaylandDesktopEnvironment() { program_.reset(); }

std::string WaylandDesktopEnvironment::describe() const {
  return "Wayland compositor " + display_ + (compositor_ ? " (voxl's own headless sway)" : "");
}

std::unique_ptr<capture::Capturer> WaylandDesktopEnvironment::make_capturer() {
  const Rect region = options_.target.kind == CaptureTarget::Kind::kRegion ? options_.target.region : Rect{};
  return std::make_unique<wayland::ScreencopyCapturer>(display_, log_, region);
}

std::unique_ptr<capture::DamageWatcher> WaylandDesktopEnvironment::make_damage_watcher(boost::asio::io_context& io) {
  return std::make_unique<wayland::ScreencopyDamageWatcher>(io, display_);
}

std::unique_ptr<input::InputInjector> WaylandDesktopEnvironment::make_input_injector() {
  return std::make_unique<wayland::VirtualInputInjector>(display_, log_);
}

std::unique_ptr<input::CursorSource> WaylandDesktopEnvironment::make_cursor_source(boost::asio::io_context&) {
  throw std::runtime_error("a wlroots compositor does not tell clients the pointer's shape: the page draws its own");
}

std::unique_ptr<input::Clipboard> WaylandDesktopEnvironment::make_clipboard(boost::asio::io_context& io,
                                                                           size_t max_bytes, bool watch) {
  return std::make_unique<wayland::DataControlClipboard>(io, display_, log_, max_bytes, watch);
}

audio::SourceOpener WaylandDesktopEnvironment::audio_source_opener() {
  return [device = options_.audio_device](std::string& error) { return pulse::open_pulse_source(device, error); };
}

std::string WaylandDesktopEnvironment::audio_source_label() const {
  return "PulseAudio source " + pulse::pulse_device_name(options_.audio_device);
}

std::unique_ptr<audio::MicrophoneSink> WaylandDesktopEnvironment::make_microphone_sink() {
  return std::make_unique<pulse::PulseMicrophoneSink>(options_.microphone_device, log_);
}

std::unique_ptr<DesktopResizer> WaylandDesktopEnvironment::make_desktop_resizer(std::string& why) {
  return wayland::OutputResizer::open(display_, log_, why);
}

std::unique_ptr<WindowRounder> WaylandDesktopEnvironment::make_window_rounder(boost::asio::io_context&,
                                                                              const WindowRoundingOptions&,
                                                                              std::string& why) {
  why = "rounded windows are an X11 feature: a Wayland compositor draws its own windows' corners";
  return nullptr;
}

std::unique_ptr<Accessibility> WaylandDesktopEnvironment::make_accessibility(std::string& why) {
  why = "the accessibility tree is read on X11 desktops only for now";
  return nullptr;
}

}  // namespace voxl::platform::linux_desktop
