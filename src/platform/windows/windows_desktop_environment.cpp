#include "platform/windows/windows_desktop_environment.h"

#include <stdexcept>

#include "platform/windows/audio/wasapi_loopback_source.h"
#include "platform/windows/audio/wasapi_microphone_sink.h"
#include "platform/windows/capture/windows_capturer.h"
#include "platform/windows/capture/windows_damage_watcher.h"
#include "platform/windows/display_mode_resizer.h"
#include "platform/windows/input/send_input_injector.h"
#include "platform/windows/input/windows_clipboard.h"
#include "platform/windows/input/windows_cursor_source.h"
#include "platform/windows/job_process.h"

namespace voxl::platform::windows {

WindowsDesktopEnvironment::WindowsDesktopEnvironment(DesktopOptions options, Logger log)
    : opt_(std::move(options)), log_(std::move(log)) {
  if (opt_.virtual_display)
    throw std::runtime_error(
        "a virtual display was asked for, but Windows has none: voxl streams the desktop of the session it runs "
        "in (choose a monitor with --display)");
  monitor_ = choose_monitor(opt_.display);
  log_->info("Windows desktop: {}", windows::describe(monitor_));
  if (!opt_.exec.empty()) exec_ = std::make_unique<JobProcess>(opt_.exec, log_);
}

// The --exec program ends before anything else of the desktop goes.
WindowsDesktopEnvironment::~WindowsDesktopEnvironment() { exec_.reset(); }

std::string WindowsDesktopEnvironment::describe() const {
  return "Windows desktop, " + windows::describe(monitor_);
}

std::string WindowsDesktopEnvironment::display_name() const { return std::to_string(monitor_.index); }

std::unique_ptr<capture::Capturer> WindowsDesktopEnvironment::make_capturer() {
  WindowsCaptureOptions o;
  o.display = display_name();
  o.target = opt_.target;
  o.log = log_;
  return std::make_unique<WindowsCapturer>(std::move(o));
}

std::unique_ptr<capture::DamageWatcher> WindowsDesktopEnvironment::make_damage_watcher(boost::asio::io_context& io) {
  WindowsCaptureOptions o;
  o.display = display_name();
  o.log = log_;
  return std::make_unique<WindowsDamageWatcher>(io, std::make_unique<WindowsCapturer>(std::move(o)));
}

std::unique_ptr<input::InputInjector> WindowsDesktopEnvironment::make_input_injector() {
  // The picture is one monitor: its top-left is the injector's 0,0.
  return std::make_unique<SendInputInjector>(log_, monitor_.monitor.rect);
}

std::unique_ptr<input::CursorSource> WindowsDesktopEnvironment::make_cursor_source(boost::asio::io_context& io) {
  return std::make_unique<WindowsCursorSource>(io, log_);
}

std::unique_ptr<input::Clipboard> WindowsDesktopEnvironment::make_clipboard(boost::asio::io_context& io,
                                                                            size_t max_bytes, bool watch) {
  return std::make_unique<WindowsClipboard>(io, log_, max_bytes, watch);
}

audio::SourceOpener WindowsDesktopEnvironment::audio_source_opener() {
  return wasapi_loopback_opener(opt_.audio_device, log_);
}

std::string WindowsDesktopEnvironment::audio_source_label() const {
  return wasapi_loopback_label(opt_.audio_device);
}

std::unique_ptr<audio::MicrophoneSink> WindowsDesktopEnvironment::make_microphone_sink() {
  return std::make_unique<WasapiMicrophoneSink>(opt_.microphone_device, log_);
}

std::unique_ptr<DesktopResizer> WindowsDesktopEnvironment::make_desktop_resizer(std::string& why) {
  if (opt_.target.kind != CaptureTarget::Kind::kScreen) {
    why = "only a whole-monitor capture follows the viewer's size";
    return nullptr;
  }
  try {
    return std::make_unique<DisplayModeResizer>(monitor_.monitor.device, log_);
  } catch (const std::exception& e) {
    why = e.what();
    return nullptr;
  }
}

// Windows 11 rounds its own windows' corners; Windows 10 has no way to
// round another program's window without changing its region, which many
// programs set themselves.
std::unique_ptr<WindowRounder> WindowsDesktopEnvironment::make_window_rounder(boost::asio::io_context&,
                                                                              const WindowRoundingOptions&,
                                                                              std::string& why) {
  why = "rounded windows (--round-corners, --round-windows) do not apply on Windows";
  return nullptr;
}

// UI Automation would carry it; not built yet.
std::unique_ptr<Accessibility> WindowsDesktopEnvironment::make_accessibility(std::string& why) {
  why = "the accessibility tree (/a11y) is not available on Windows yet";
  return nullptr;
}

}  // namespace voxl::platform::windows

namespace voxl::platform {

std::unique_ptr<DesktopEnvironment> make_desktop_environment(const DesktopOptions& options, const Logger& log) {
  if (options.backend == DesktopBackend::kWayland || options.backend == DesktopBackend::kPortal ||
      options.wayland_compositor)
    throw std::runtime_error("Wayland desktops are streamed on Linux only (--backend wayland, --wayland)");
  return std::make_unique<windows::WindowsDesktopEnvironment>(options, log);
}

}  // namespace voxl::platform
