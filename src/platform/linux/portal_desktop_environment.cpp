#include "platform/linux/portal_desktop_environment.h"

#include <stdexcept>

#include "platform/portal/portal_capturer.h"
#include "platform/portal/portal_damage_watcher.h"
#include "platform/portal/portal_input_injector.h"
#include "platform/portal/portal_session.h"
#include "platform/portal/restore_token_file.h"
#include "platform/pulse/pulse_microphone_sink.h"
#include "platform/pulse/pulse_source.h"

namespace voxl::platform::linux_desktop {

PortalDesktopEnvironment::PortalDesktopEnvironment(DesktopOptions options, Logger log)
    : options_(std::move(options)), log_(std::move(log)) {
  if (options_.target.kind == CaptureTarget::Kind::kWindow)
    throw std::runtime_error("through the desktop portal voxl shares the monitor the desktop offers, or a region "
                             "of it (--capture-region): --capture-window is X11's");
  if (!options_.exec.empty())
    throw std::runtime_error("--exec starts a program in a desktop voxl starts (--xvfb, --wayland); a desktop "
                             "shared through the portal runs its own programs");
  portal::PortalSessionOptions po;
  const std::string token_path = portal::restore_token_path();
  po.restore_token = portal::read_restore_token(token_path);
  session_ = std::make_shared<portal::PortalSession>(po, log_);
  log_->info("sharing {}{}", session_->describe(),
             session_->input() ? ", with keyboard and pointer" : "; no input: " + session_->input_refusal());
  if (!session_->restore_token().empty() && session_->restore_token() != po.restore_token) {
    std::string why;
    if (portal::write_restore_token(token_path, session_->restore_token(), why))
      log_->info("kept the portal's restore token in {}: the desktop need not ask again", token_path);
    else
      log_->warn("could not keep the portal's restore token ({}): the desktop will ask again next time", why);
  }
}

PortalDesktopEnvironment::~PortalDesktopEnvironment() = default;

std::string PortalDesktopEnvironment::describe() const { return session_->describe(); }

std::unique_ptr<capture::Capturer> PortalDesktopEnvironment::make_capturer() {
  const Rect region = options_.target.kind == CaptureTarget::Kind::kRegion ? options_.target.region : Rect{};
  return std::make_unique<portal::PortalCapturer>(session_, log_, region);
}

std::unique_ptr<capture::DamageWatcher> PortalDesktopEnvironment::make_damage_watcher(boost::asio::io_context& io) {
  return std::make_unique<portal::PortalDamageWatcher>(io, session_);
}

std::unique_ptr<input::InputInjector> PortalDesktopEnvironment::make_input_injector() {
  return std::make_unique<portal::PortalInputInjector>(session_, log_);
}

std::unique_ptr<input::CursorSource> PortalDesktopEnvironment::make_cursor_source(boost::asio::io_context&) {
  throw std::runtime_error("the desktop portal draws the pointer into the picture: the page draws no shape of its own");
}

std::unique_ptr<input::Clipboard> PortalDesktopEnvironment::make_clipboard(boost::asio::io_context&, size_t, bool) {
  throw std::runtime_error("the clipboard is not shared through the desktop portal yet");
}

audio::SourceOpener PortalDesktopEnvironment::audio_source_opener() {
  return [device = options_.audio_device](std::string& error) { return pulse::open_pulse_source(device, error); };
}

std::string PortalDesktopEnvironment::audio_source_label() const {
  return "PulseAudio source " + pulse::pulse_device_name(options_.audio_device);
}

std::unique_ptr<audio::MicrophoneSink> PortalDesktopEnvironment::make_microphone_sink() {
  return std::make_unique<pulse::PulseMicrophoneSink>(options_.microphone_device, log_);
}

std::unique_ptr<DesktopResizer> PortalDesktopEnvironment::make_desktop_resizer(std::string& why) {
  why = "the desktop portal cannot change the size of the desktop's monitor";
  return nullptr;
}

std::unique_ptr<WindowRounder> PortalDesktopEnvironment::make_window_rounder(boost::asio::io_context&,
                                                                             const WindowRoundingOptions&,
                                                                             std::string& why) {
  why = "rounded windows are an X11 feature: a Wayland compositor draws its own windows' corners";
  return nullptr;
}

std::unique_ptr<Accessibility> PortalDesktopEnvironment::make_accessibility(std::string& why) {
  why = "the accessibility tree is read on X11 desktops only for now";
  return nullptr;
}

}  // namespace voxl::platform::linux_desktop
