// The desktop voxl streams: the X display (a private Xvfb when none is
// given, or when --xvfb asks for one) and --exec's program running in it.
// Every other unit opens its own X connections to display(); the video
// pipeline and /screenshot get their capturers from make_capturer().
//
// Threads: construct and destroy on the daemon's thread (Xvfb and the
// program are told to die with the thread that started them).
// make_capturer() may be called from any thread while this lives.
// With a private Xvfb, XAUTHORITY is set in voxl's environment (to the
// server's cookie file) for the life of this object, so make it before any
// other thread that may read the environment.
// Lifetime: made first and destroyed last, after every unit that holds an
// X connection to the display; the program is stopped before the Xvfb.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/config.h"
#include "base/geometry.h"
#include "base/logging.h"
#include "capture/capturer.h"

namespace voxl {
class ChildProcess;
}
namespace voxl::platform::x11 {
class VirtualDisplay;
}

namespace voxl::app {

class DesktopWiring {
 public:
  // Throws std::runtime_error when Xvfb or the program cannot start.
  DesktopWiring(const Config& config, const Logger& log);
  ~DesktopWiring();
  DesktopWiring(const DesktopWiring&) = delete;
  DesktopWiring& operator=(const DesktopWiring&) = delete;

  const std::string& display() const { return display_; }

  // A capturer of the configured target (screen, region or window), on a
  // connection of its own.
  std::unique_ptr<capture::Capturer> make_capturer() const;

  // Where the picture lies on the screen when it is a fixed part of it
  // (--capture-region): what the agent endpoints call 0,0 and how big the
  // picture is. nullopt for the screen (whose coordinates are the picture's)
  // and for a window, which may move and resize under the stream.
  std::optional<Rect> capture_area() const { return config_.capture_region; }

 private:
  const Config& config_;
  Logger log_;
  std::unique_ptr<platform::x11::VirtualDisplay> xvfb_;
  std::string display_;
  std::optional<std::string> saved_xauthority_;  // XAUTHORITY before ours
  std::unique_ptr<ChildProcess> program_;  // goes before the display it runs in
};

}  // namespace voxl::app
