// The platform seam: everything voxl needs from the desktop it streams,
// asked of one factory. Exactly one implementation is built, chosen by
// platform at build time (X11 with PulseAudio on Linux, Win32 on Windows);
// nothing outside src/platform knows which.
//
// Threads: make the environment on the daemon's thread before any other
// thread starts, destroy it last. make_capturer() may be called from any
// thread (the video pipeline rebuilds its capturer on its own thread after
// a kReinit); the make_* calls taking a loop are made on that loop's thread
// and their products live on it. Ownership: every product is owned by the
// caller and must be destroyed before the environment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "audio/audio_source.h"
#include "audio/microphone_sink.h"
#include "base/geometry.h"
#include "base/logging.h"
#include "capture/capturer.h"
#include "capture/damage_watcher.h"
#include "input/clipboard.h"
#include "input/cursor_source.h"
#include "input/input_injector.h"
#include "platform/accessibility.h"
#include "platform/desktop_resizer.h"
#include "platform/window_rounder.h"

namespace boost::asio {
class io_context;
}

namespace voxl::platform {

// What to capture of the desktop.
struct CaptureTarget {
  enum class Kind { kScreen, kRegion, kWindow };
  Kind kind = Kind::kScreen;
  Rect region;             // kRegion, in desktop pixels
  uint64_t window = 0;     // kWindow: a native window id (X11 window, HWND)
};

// Which kind of desktop to stream on Linux (--backend).
enum class DesktopBackend { kAuto, kX11, kWayland, kPortal };

struct DesktopOptions {
  // Which desktop: an X display name (":1"), or a monitor index on Windows
  // ("0", "1"). Empty: the platform's default ($DISPLAY on X11, the primary
  // monitor on Windows); on X11 a private virtual display when there is none.
  std::string display;
  // Start a private virtual display of this size even when a desktop exists
  // (X11: Xvfb). Platforms without one refuse it at start.
  std::optional<Size> virtual_display;
  // Linux: X11 or Wayland (see platform/linux/backend_choice.h); with
  // kWayland, `display` names the compositor's socket ("wayland-1", or a
  // path). kPortal: the desktop portal's screen cast and remote desktop
  // (GNOME, KDE), whatever the compositor. Other platforms refuse both.
  DesktopBackend backend = DesktopBackend::kAuto;
  // Start voxl's own headless Wayland compositor of this size (--wayland),
  // and when voxl is root run it (and `exec`) as `compositor_user`.
  std::optional<Size> wayland_compositor;
  std::string compositor_user = "nobody";
  // A shell command run inside the desktop for voxl's lifetime; empty: none.
  std::string exec;
  CaptureTarget target;
  // Desktop sound (--audio-device-name); empty: the platform's default
  // output (the monitor of PulseAudio's default sink; the default render
  // endpoint's loopback under WASAPI).
  std::string audio_device;
  // Where the viewers' microphone goes: a FIFO path for PulseAudio's pipe
  // source, a render device name (a virtual cable) on Windows. Empty: the
  // platform's default.
  std::string microphone_device;
  // Dynamic resolution (--enable-resize): the desktop follows the viewers'
  // windows through make_desktop_resizer(). On X11 a private Xvfb then
  // starts at the largest size it may take (3840x2160, or virtual_display
  // where larger) and is brought to virtual_display (default 1920x1080) at
  // once, since Xvfb cannot grow past its start size.
  bool resize = false;
  // The accessibility tree (--a11y): make_accessibility() reads it, and
  // where voxl starts the desktop (its own virtual display, --exec) it
  // starts the platform's accessibility bus and tells the program's
  // toolkit to publish its tree.
  bool accessibility = false;
};

class DesktopEnvironment {
 public:
  virtual ~DesktopEnvironment() = default;

  // The desktop in words for the log: "X display :1 (private Xvfb)".
  virtual std::string describe() const = 0;
  // The display's name as the user would give it again (--display).
  virtual std::string display_name() const = 0;

  // A capturer of the configured target on a connection of its own. Throws
  // std::runtime_error when the desktop cannot be opened. Any thread.
  virtual std::unique_ptr<capture::Capturer> make_capturer() = 0;
  // Where the whole screen changes, reported on `io`. Throws
  // std::runtime_error when the platform cannot watch for damage.
  virtual std::unique_ptr<capture::DamageWatcher> make_damage_watcher(boost::asio::io_context& io) = 0;
  // Keyboard and pointer injection. Throws std::runtime_error when the
  // platform refuses (X11 without XTEST).
  virtual std::unique_ptr<input::InputInjector> make_input_injector() = 0;
  // The pointer's shape, reported on `io`. Throws std::runtime_error when
  // the platform cannot report it.
  virtual std::unique_ptr<input::CursorSource> make_cursor_source(boost::asio::io_context& io) = 0;
  // The desktop's clipboard, its changes reported on `io`; contents over
  // `max_bytes` are refused. `watch` false: only offer, never report what
  // applications copy. Throws std::runtime_error when unavailable.
  virtual std::unique_ptr<input::Clipboard> make_clipboard(boost::asio::io_context& io, size_t max_bytes,
                                                           bool watch) = 0;
  // Opens desktop sound on the audio thread (may be called again after a
  // source is lost), and its label for the log.
  virtual audio::SourceOpener audio_source_opener() = 0;
  virtual std::string audio_source_label() const = 0;
  // Where the microphone's PCM goes. Throws std::runtime_error when it
  // cannot be made (start-up only).
  virtual std::unique_ptr<audio::MicrophoneSink> make_microphone_sink() = 0;
  // Changes the desktop's size for dynamic resolution; null when this
  // desktop cannot be resized, with `why` set.
  virtual std::unique_ptr<DesktopResizer> make_desktop_resizer(std::string& why) = 0;
  // Rounds the corners of the desktop's top-level windows while it lives
  // (platform/window_rounder.h); null with `why` set where that cannot be
  // done. Made on `io`'s thread, lives on it.
  virtual std::unique_ptr<WindowRounder> make_window_rounder(boost::asio::io_context& io,
                                                             const WindowRoundingOptions& options,
                                                             std::string& why) = 0;
  // The applications' accessibility tree (platform/accessibility.h); null
  // with `why` set where this platform cannot read it. Any thread; the
  // product is used by one thread at a time.
  virtual std::unique_ptr<Accessibility> make_accessibility(std::string& why) = 0;
};

// The one implementation this build has. Starts what the options ask for (a
// private virtual display, the program). Throws std::runtime_error when the
// desktop cannot be reached or started.
std::unique_ptr<DesktopEnvironment> make_desktop_environment(const DesktopOptions& options, const Logger& log);

}  // namespace voxl::platform
