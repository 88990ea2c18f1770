#include "platform/linux/linux_desktop_environment.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "platform/atspi/atspi_accessibility.h"
#include "platform/linux/accessibility_bus.h"
#include "platform/child_process.h"
#include "platform/pulse/pulse_microphone_sink.h"
#include "platform/pulse/pulse_source.h"
#include "platform/x11/randr_resizer.h"
#include "platform/x11/root_property.h"
#include "platform/x11/selection_clipboard.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "platform/x11/x11_damage_watcher.h"
#include "platform/x11/x11_window_rounder.h"
#include "platform/x11/xfixes_cursor_source.h"
#include "platform/x11/xtest_injector.h"

namespace voxl::platform::linux_desktop {

LinuxDesktopEnvironment::LinuxDesktopEnvironment(DesktopOptions options, Logger log)
    : options_(std::move(options)), log_(std::move(log)), display_(options_.display) {
  const char* env_display = std::getenv("DISPLAY");
  if (options_.virtual_display || (display_.empty() && (!env_display || !*env_display))) {
    const Size wanted = options_.virtual_display.value_or(x11::VirtualDisplayOptions{}.size);
    if (!options_.resize) {
      start_xvfb(wanted);
    } else {
      // Xvfb's framebuffer never grows, so RandR can only shrink it from its
      // start size: start at the largest the desktop may take and bring it
      // to the size asked for before anything captures or runs in it.
      const Size largest{std::max(wanted.width, kLargestXvfb.width),
                         std::max(wanted.height, kLargestXvfb.height)};
      const double mib = double(largest.area()) * 4 / (1024 * 1024);
      bool started = false;
      try {
        start_xvfb(largest);
        started = true;
      } catch (const std::runtime_error& e) {
        // Memory (shared-memory limits, say) may not allow it: the size
        // asked for without resizing beats no desktop.
        resize_why_ = "cannot resize the desktop: the private Xvfb did not start at " +
                      std::to_string(largest.width) + "x" + std::to_string(largest.height) + " (" + e.what() +
                      ")";
        log_->warn("{}; starting it at {}x{}", resize_why_, wanted.width, wanted.height);
      }
      if (started)
        log_->info("the private Xvfb's framebuffer stays {}x{} whatever the desktop's size: {:.1f} MiB of "
                   "shared memory (4 bytes a pixel), the price of growing up to that size",
                   largest.width, largest.height, mib);
      if (!started || !bring_xvfb_to(wanted)) start_xvfb(wanted);
    }
  } else if (display_.empty()) {
    display_ = env_display;
  }
  if (options_.accessibility && (xvfb_ || !options_.exec.empty())) {
    std::string why;
    if (auto existing = x11::root_string_property(display_, "AT_SPI_BUS", why))
      log_->info("{} has an accessibility bus already ({})", display_, *existing);
    else
      a11y_bus_ = std::make_unique<AccessibilityBus>(display_, xvfb_ ? xvfb_->authority_file() : "", log_);
  }
  if (!options_.exec.empty()) {
    ChildOptions co;
    co.argv = {"/bin/sh", "-c", options_.exec};
    co.env = {"DISPLAY=" + display_};
    if (xvfb_) co.env.push_back("XAUTHORITY=" + xvfb_->authority_file());
    if (options_.accessibility)
      for (std::string& v : AccessibilityBus::program_environment()) co.env.push_back(std::move(v));
    co.quiet = false;
    program_ = std::make_unique<ChildProcess>(co);
    log_->info("started `{}` on {} (pid {})", options_.exec, display_, program_->pid());
  }
}

void LinuxDesktopEnvironment::start_xvfb(Size size) {
  xvfb_.reset();  // a second start replaces the first server
  x11::VirtualDisplayOptions vo;
  vo.size = size;
  vo.private_authority = true;
  xvfb_ = std::make_unique<x11::VirtualDisplay>(vo);
  display_ = xvfb_->name();
  // Every X connection voxl opens from now on (xcb_connect reads
  // XAUTHORITY at each call) and the program get the cookie; nobody else.
  if (!saved_xauthority_set_) {
    if (const char* old = std::getenv("XAUTHORITY")) saved_xauthority_ = old;
    saved_xauthority_set_ = true;
  }
  setenv("XAUTHORITY", xvfb_->authority_file().c_str(), 1);
  log_->info("started a private Xvfb on {} ({}x{}), admitting only holders of its cookie ({})", display_,
             vo.size.width, vo.size.height, xvfb_->authority_file());
  if (!xvfb_->framebuffer_warning().empty())
    log_->warn("the private Xvfb's {}: other local users may see the screen", xvfb_->framebuffer_warning());
}

bool LinuxDesktopEnvironment::bring_xvfb_to(Size size) {
  std::string why;  // from open(): "cannot resize the desktop: ..."
  auto resizer = x11::RandrResizer::open(display_, log_, why);
  if (resizer && !resizer->resize(size, why)) {
    why = "cannot resize the desktop: " + why;
    resizer.reset();
  }
  if (!resizer) {
    log_->warn("starting the private Xvfb again at {}x{}, without dynamic resolution ({})", size.width,
               size.height, why);
    resize_why_ = why;
    return false;
  }
  // Its size now is the one to go back to at exit, not the start size.
  resizer->keep_current_as_original();
  return true;
}

LinuxDesktopEnvironment::~LinuxDesktopEnvironment() {
  program_.reset();
  if (!xvfb_) return;
  if (saved_xauthority_) setenv("XAUTHORITY", saved_xauthority_->c_str(), 1);
  else unsetenv("XAUTHORITY");
}

std::string LinuxDesktopEnvironment::describe() const {
  return "X display " + display_ + (xvfb_ ? " (private Xvfb)" : "");
}

std::unique_ptr<capture::Capturer> LinuxDesktopEnvironment::make_capturer() {
  x11::X11CaptureOptions o;
  o.display = display_;
  o.log = log_;
  if (xvfb_) o.framebuffer_shmid = xvfb_->framebuffer_shmid();
  switch (options_.target.kind) {
    case CaptureTarget::Kind::kScreen:
      break;
    case CaptureTarget::Kind::kRegion:
      o.target = x11::X11CaptureOptions::Target::kRegion;
      o.region = options_.target.region;
      break;
    case CaptureTarget::Kind::kWindow:
      o.target = x11::X11CaptureOptions::Target::kWindow;
      o.window = uint32_t(options_.target.window);
      break;
  }
  return std::make_unique<x11::X11Capturer>(o);
}

std::unique_ptr<capture::DamageWatcher> LinuxDesktopEnvironment::make_damage_watcher(boost::asio::io_context& io) {
  return std::make_unique<x11::X11DamageWatcher>(io, display_);
}

std::unique_ptr<input::InputInjector> LinuxDesktopEnvironment::make_input_injector() {
  return std::make_unique<x11::XTestInjector>(display_, log_);
}

std::unique_ptr<input::CursorSource> LinuxDesktopEnvironment::make_cursor_source(boost::asio::io_context& io) {
  return std::make_unique<x11::XFixesCursorSource>(io, display_, log_);
}

std::unique_ptr<input::Clipboard> LinuxDesktopEnvironment::make_clipboard(boost::asio::io_context& io,
                                                                         size_t max_bytes, bool watch) {
  return std::make_unique<x11::SelectionClipboard>(io, display_, log_, max_bytes, watch);
}

audio::SourceOpener LinuxDesktopEnvironment::audio_source_opener() {
  return [device = options_.audio_device](std::string& error) { return pulse::open_pulse_source(device, error); };
}

std::string LinuxDesktopEnvironment::audio_source_label() const {
  return "PulseAudio source " + pulse::pulse_device_name(options_.audio_device);
}

std::unique_ptr<audio::MicrophoneSink> LinuxDesktopEnvironment::make_microphone_sink() {
  return std::make_unique<pulse::PulseMicrophoneSink>(options_.microphone_device, log_);
}

std::unique_ptr<DesktopResizer> LinuxDesktopEnvironment::make_desktop_resizer(std::string& why) {
  if (!resize_why_.empty()) {
    why = resize_why_;
    return nullptr;
  }
  return x11::RandrResizer::open(display_, log_, why);
}

std::unique_ptr<WindowRounder> LinuxDesktopEnvironment::make_window_rounder(boost::asio::io_context& io,
                                                                            const WindowRoundingOptions& options,
                                                                            std::string& why) {
  return x11::X11WindowRounder::open(io, display_, options, log_, why);
}

std::unique_ptr<Accessibility> LinuxDesktopEnvironment::make_accessibility(std::string& why) {
  if (!options_.accessibility) {
    why = "the accessibility tree is off: start voxl with --a11y (with its own desktop it also starts the "
          "accessibility bus and asks the program's toolkit to publish its tree)";
    return nullptr;
  }
  // The display's own accessibility bus, as at-spi-bus-launcher publishes
  // it on the root window; read afresh at each reconnect.
  return std::make_unique<atspi::AtspiAccessibility>(
      [display = display_](std::string& not_there) { return x11::root_string_property(display, "AT_SPI_BUS", not_there); });
}

}  // namespace voxl::platform::linux_desktop
