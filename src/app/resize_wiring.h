// Dynamic resolution (--enable-resize): the platform's desktop resizer and
// the controller that decides, from the viewers' requests, which size it is
// given (stream/viewer/resize_controller.h). Without the flag there is neither and
// viewers are not told about resizing; with it but a display that cannot
// follow, viewers are told why and their pages keep scaling the picture.
//
// Threads: the loop thread only (the resizer makes its round trips there;
// the timer runs on the loop). Lifetime: made after the loop and before the
// server, whose sessions use the controller; destroyed after them and
// before the desktop environment: the resizer puts the desktop's first size
// back and deletes the modes it made as it goes.
#pragma once

#include <memory>

#include <boost/asio/steady_timer.hpp>

#include "app/config.h"
#include "base/logging.h"

namespace voxl::platform {
class DesktopEnvironment;
class DesktopResizer;
}  // namespace voxl::platform
namespace voxl::stream {
class ResizeController;
}

namespace voxl::app {

class ResizeWiring {
 public:
  ResizeWiring(const Config& config, boost::asio::io_context& io, platform::DesktopEnvironment& desktop,
               const Logger& log);
  ~ResizeWiring();
  ResizeWiring(const ResizeWiring&) = delete;
  ResizeWiring& operator=(const ResizeWiring&) = delete;

  // Null without --enable-resize.
  stream::ResizeController* controller() { return controller_.get(); }
  // Before the server closes its sessions: no resize for the viewers that
  // remain as the others leave.
  void stop();

 private:
  Logger log_;
  boost::asio::steady_timer timer_;
  std::unique_ptr<platform::DesktopResizer> resizer_;
  std::unique_ptr<stream::ResizeController> controller_;  // goes before the resizer it calls
};

}  // namespace voxl::app
