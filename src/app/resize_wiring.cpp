#include "app/resize_wiring.h"

#include <exception>
#include <string>
#include <utility>

#include "platform/desktop_environment.h"
#include "platform/desktop_resizer.h"
#include "stream/viewer/resize_controller.h"

namespace voxl::app {

ResizeWiring::ResizeWiring(const Config& config, boost::asio::io_context& io, platform::DesktopEnvironment& desktop,
                           const Logger& log)
    : log_(log), timer_(io) {
  if (!config.resize) return;
  stream::ResizeSettings settings;
  if (config.capture_region || config.capture_window) {
    // A region could end up off a shrunk screen, and a window's size is
    // its own; the page's 1:1 picture is the whole desktop.
    settings.disabled_reason = "only a whole-screen capture follows the viewer's window";
  } else {
    try {
      resizer_ = desktop.make_desktop_resizer(settings.disabled_reason);
    } catch (const std::exception& e) {
      settings.disabled_reason = e.what();
    }
  }
  const double display_scale = resizer_ ? resizer_->display_scale() : 0;
  settings.scale = config.resize_scale.value_or(display_scale >= 0.25 && display_scale <= 4 ? display_scale
                                                                                            : Config::kDefaultResizeScale);
  stream::ResizeHooks hooks;
  if (resizer_) {
    settings.current = resizer_->current_size();
    settings.max = resizer_->max_size();
    hooks.resize = [this](Size size, std::string& error) {
      try {
        return resizer_->resize(size, error);
      } catch (const std::exception& e) {
        error = e.what();
        return false;
      }
    };
    hooks.current_size = [this] {
      try {
        return resizer_->current_size();
      } catch (const std::exception&) {
        return Size{};
      }
    };
    hooks.arm_timer = [this](stream::ResizeHooks::Time when) {
      timer_.expires_at(when);
      timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec && controller_) controller_->on_timer();
      });
    };
    log_->info("the desktop ({}x{}) follows the window of the viewer that last used input, up to {}x{}; "
               "{} desktop pixels per CSS pixel at most",
               settings.current.width, settings.current.height, settings.max.width, settings.max.height,
               settings.scale);
  } else {
    if (settings.disabled_reason.empty()) settings.disabled_reason = "this desktop cannot be resized";
    log_->warn("--enable-resize: the desktop cannot follow viewers' windows ({}); pages scale the picture",
               settings.disabled_reason);
  }
  controller_ = std::make_unique<stream::ResizeController>(std::move(settings), std::move(hooks), log_);
}

void ResizeWiring::stop() {
  timer_.cancel();
  if (controller_) controller_->stop();
}

ResizeWiring::~ResizeWiring() {
  timer_.cancel();
  controller_.reset();
  if (!resizer_) return;
  try {
    resizer_->restore();
  } catch (const std::exception& e) {
    log_->warn("cannot put the desktop's size back: {}", e.what());
  }
}

}  // namespace voxl::app
