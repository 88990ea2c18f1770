// The Windows implementation of the platform seam: capture through
// WindowsCapturer (DXGI with GDI as the fallback), SendInput, the Win32
// clipboard and cursor, WASAPI loopback and the microphone render sink,
// display-mode resizing, and --exec in a job object. There is no virtual
// display on Windows: asking for one is refused.
//
// Threads: see DesktopEnvironment.
#pragma once

#include <memory>

#include "base/logging.h"
#include "platform/desktop_environment.h"
#include "platform/windows/capture/monitors.h"

namespace voxl::platform::windows {

class JobProcess;

class WindowsDesktopEnvironment final : public DesktopEnvironment {
 public:
  // Throws std::runtime_error for a virtual display, a --display that names
  // no monitor, or an --exec that cannot be started.
  WindowsDesktopEnvironment(DesktopOptions options, Logger log);
  ~WindowsDesktopEnvironment() override;

  std::string describe() const override;
  std::string display_name() const override;
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
  DesktopOptions opt_;
  Logger log_;
  MonitorChoice monitor_;
  std::unique_ptr<JobProcess> exec_;
};

}  // namespace voxl::platform::windows
