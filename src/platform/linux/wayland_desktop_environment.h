// The Linux desktop on Wayland: a wlroots compositor (sway, cage, river,
// labwc...) named by its socket, or voxl's own headless sway (--wayland),
// with --exec's program in it. Captured through wlr-screencopy, driven
// through the virtual keyboard and pointer, its clipboard shared through
// wlr-data-control, its output resized through wlr-output-management
// (platform/wayland); sound and the
// microphone through PulseAudio as on X11. Every product opens a Wayland
// connection of its own.
//
// Not yet on Wayland, each refused with its reason where the seam asks:
// cursor shapes (the page draws its own), rounded windows, the accessibility tree, and capturing a region or a
// window (the whole output only).
//
// Threads and ownership: see DesktopEnvironment. The program is stopped
// before the compositor it runs in.
#pragma once

#include <memory>
#include <string>

#include "base/logging.h"
#include "platform/desktop_environment.h"

namespace voxl::platform {
class ChildProcess;
}
namespace voxl::platform::wayland {
class HeadlessCompositor;
}

namespace voxl::platform::linux_desktop {

class WaylandDesktopEnvironment final : public DesktopEnvironment {
 public:
  // `display`: the compositor's socket (a name in XDG_RUNTIME_DIR or a
  // path); ignored with options.wayland_compositor. Throws
  // std::runtime_error when the compositor cannot be started or reached,
  // or cannot be captured.
  WaylandDesktopEnvironment(DesktopOptions options, std::string display, Logger log);
  ~WaylandDesktopEnvironment() override;
  WaylandDesktopEnvironment(const WaylandDesktopEnvironment&) = delete;
  WaylandDesktopEnvironment& operator=(const WaylandDesktopEnvironment&) = delete;

  std::string describe() const override;
  std::string display_name() const override { return display_; }

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
  std::unique_ptr<wayland::HeadlessCompositor> compositor_;
  std::string display_;  // the socket's full path
  std::unique_ptr<ChildProcess> program_;  // goes before the compositor it runs in
};

}  // namespace voxl::platform::linux_desktop
