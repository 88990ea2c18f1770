// The Linux desktop: an X display (a private Xvfb when none is given, or
// when asked for one) with --exec's program in it, captured and driven
// through X11, with sound and the microphone through PulseAudio. Every
// product opens an X connection of its own to display_name(). The desktop
// resizer is RandR's (platform/x11/randr_resizer.h); with options.resize a
// private Xvfb starts at its largest size and is shrunk to the one asked for.
//
// Threads and ownership: see DesktopEnvironment. With a private Xvfb,
// XAUTHORITY is set in voxl's environment (to the server's cookie file) for
// the life of this object, so make it before any other thread that may read
// the environment. The program is stopped before the Xvfb it runs in.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "base/logging.h"
#include "platform/desktop_environment.h"

namespace voxl::platform {
class ChildProcess;
}
namespace voxl::platform::x11 {
class VirtualDisplay;
}

namespace voxl::platform::linux_desktop {

class AccessibilityBus;

class LinuxDesktopEnvironment final : public DesktopEnvironment {
 public:
  // Throws std::runtime_error when Xvfb or the program cannot start.
  LinuxDesktopEnvironment(DesktopOptions options, Logger log);
  ~LinuxDesktopEnvironment() override;
  LinuxDesktopEnvironment(const LinuxDesktopEnvironment&) = delete;
  LinuxDesktopEnvironment& operator=(const LinuxDesktopEnvironment&) = delete;

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
  // With options.resize, voxl's own Xvfb starts at least this large.
  static constexpr Size kLargestXvfb{3840, 2160};

  // Starts (or starts again) the private Xvfb at `size`.
  void start_xvfb(Size size);
  // Brings the private Xvfb to `size` with RandR; false (with resize_why_
  // set) when it cannot.
  bool bring_xvfb_to(Size size);

  DesktopOptions options_;
  Logger log_;
  std::unique_ptr<x11::VirtualDisplay> xvfb_;
  std::string display_;
  std::optional<std::string> saved_xauthority_;  // XAUTHORITY before ours
  bool saved_xauthority_set_ = false;
  std::string resize_why_;  // why the desktop cannot be resized, when known at start
  std::unique_ptr<AccessibilityBus> a11y_bus_;  // --a11y; goes before the display
  std::unique_ptr<ChildProcess> program_;  // goes before its bus and the display it runs in
};

}  // namespace voxl::platform::linux_desktop
