#include "app/desktop_wiring.h"

#include <cstdlib>

#include "base/child_process.h"
#include "capture/x11/virtual_display.h"
#include "capture/x11/x11_capturer.h"

namespace voxl::app {

namespace x11 = capture::x11;

DesktopWiring::DesktopWiring(const Config& config, const Logger& log)
    : config_(config), log_(log), display_(config.display) {
  const char* env_display = std::getenv("DISPLAY");
  if (config.xvfb || (display_.empty() && (!env_display || !*env_display))) {
    x11::VirtualDisplayOptions vo;
    if (config.xvfb) vo.size = *config.xvfb;
    xvfb_ = std::make_unique<x11::VirtualDisplay>(vo);
    display_ = xvfb_->name();
    log->info("started a private Xvfb on {} ({}x{})", display_, vo.size.width, vo.size.height);
  }
  if (!config.exec.empty()) {
    ChildOptions co;
    co.argv = {"/bin/sh", "-c", config.exec};
    co.env = {"DISPLAY=" + display_};
    co.quiet = false;
    program_ = std::make_unique<ChildProcess>(co);
    log->info("started `{}` on {} (pid {})", config.exec, display_, program_->pid());
  }
}

DesktopWiring::~DesktopWiring() = default;

std::unique_ptr<capture::Capturer> DesktopWiring::make_capturer() const {
  x11::X11CaptureOptions o;
  o.display = display_;
  o.log = log_;
  if (xvfb_) o.framebuffer_shmid = xvfb_->framebuffer_shmid();
  if (config_.capture_region) {
    o.target = x11::X11CaptureOptions::Target::kRegion;
    o.region = *config_.capture_region;
  } else if (config_.capture_window) {
    o.target = x11::X11CaptureOptions::Target::kWindow;
    o.window = config_.capture_window;
  }
  return std::make_unique<x11::X11Capturer>(o);
}

}  // namespace voxl::app
