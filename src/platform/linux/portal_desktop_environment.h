// The Linux desktop through the desktop portal: GNOME's and KDE Plasma's
// Wayland sessions (and any desktop whose portal casts the screen). One
// portal session (platform/portal/portal_session.h) for voxl's lifetime,
// shared by the capturer (its PipeWire stream) and the input injector;
// its restore token kept between runs (restore_token_file.h) so that the
// desktop asks its user once. Sound and the microphone through PulseAudio
// (or PipeWire's PulseAudio server) as elsewhere.
//
// Not through the portal, each refused with its reason where the seam asks:
// the pointer's shape (the portal draws it into the picture), the
// clipboard, dynamic resolution, rounded windows, the accessibility tree,
// and capturing a region or a window.
//
// Threads and ownership: see DesktopEnvironment.
#pragma once

#include <memory>
#include <string>

#include "base/logging.h"
#include "platform/desktop_environment.h"

namespace voxl::platform::portal {
class PortalSession;
}

namespace voxl::platform::linux_desktop {

class PortalDesktopEnvironment final : public DesktopEnvironment {
 public:
  // Starts the portal session (the desktop may ask its user). Throws
  // std::runtime_error saying why when it cannot be had.
  PortalDesktopEnvironment(DesktopOptions options, Logger log);
  ~PortalDesktopEnvironment() override;

  std::string describe() const override;
  std::string display_name() const override { return "portal"; }

  std::unique_ptr<capture::Capturer> make_capturer() override;
  std::unique_ptr<capture::DamageWatcher> make_damage_watcher(boost::asio::io_context& io) override;
  std::unique_ptr<input::InputInjector> make_input_injector() override;
  std::unique_ptr<input::CursorSource> make_cursor_source(boost::asio::io_context& io) override;
  std::unique_ptr<input::Clipboard> make_clipboard(boost::asio::io_context& io, size_t max_bytes,
                                                   bool watch) override;
  audio::SourceOpener audio_source_opener() override;
  std::string audio_source_label() const override;
  std::unique_ptr<audio::MicrophoneSink> make_microphone_sink() override;
  std::unique_ptr<DesktopResizer> make_desktop_resizer(std::string& why) override;
  std::unique_ptr<WindowRounder> make_window_rounder(boost::asio::io_context& io, const WindowRoundingOptions& options,
                                                     std::string& why) override;
  std::unique_ptr<Accessibility> make_accessibility(std::string& why) override;

 private:
  DesktopOptions options_;
  Logger log_;
  std::shared_ptr<portal::PortalSession> session_;
};

}  // namespace voxl::platform::linux_desktop
