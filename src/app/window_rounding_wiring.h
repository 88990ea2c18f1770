// Rounded windows (--round-corners, --round-windows): the platform's window
// rounder, made when either flag asks for it. Where the platform has none
// (Windows), start-up says the flags do not apply there.
//
// Threads: the loop thread only. Lifetime: made after the loop, destroyed
// before it and before the desktop environment: the rounder squares the
// windows it shaped as it goes, while the display is still there.
#pragma once

#include <memory>

#include <boost/asio/io_context.hpp>

#include "app/config.h"
#include "base/logging.h"

namespace voxl::platform {
class DesktopEnvironment;
class WindowRounder;
}  // namespace voxl::platform

namespace voxl::app {

class WindowRoundingWiring {
 public:
  WindowRoundingWiring(const Config& config, boost::asio::io_context& io, platform::DesktopEnvironment& desktop,
                       const Logger& log);
  ~WindowRoundingWiring();
  WindowRoundingWiring(const WindowRoundingWiring&) = delete;
  WindowRoundingWiring& operator=(const WindowRoundingWiring&) = delete;

 private:
  std::unique_ptr<platform::WindowRounder> rounder_;
};

}  // namespace voxl::app
