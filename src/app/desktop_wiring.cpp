#include "app/desktop_wiring.h"

#include <cstdlib>

#include "base/child_process.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"

namespace voxl::app {

namespace x11 = platform::x11;

DesktopWiring::DesktopWiring(const Config& config, const Logger& log)
    : config_(config), log_(log), display_(config.display) {
  const char* env_display = std::getenv("DISPLAY");
  if (config.xvfb || (display_.empty() && (!env_display || !*env_display))) {
    x11::VirtualDisplayOptions vo;
    if (config.xvfb) vo.size = *config.xvfb;
    vo.private_authority = true;
    xvfb_ = std::make_unique<x11::VirtualDisplay>(vo);
    display_ = xvfb_->name();
    // Every X connection voxl opens from now on (xcb_connect reads
    // XAUTHORITY at each call) and the program get the cookie; nobody else.
    if (const char* old = std::getenv("XAUTHORITY")) saved_xauthority_ = old;
    setenv("XAUTHORITY", xvfb_->authority_file().c_str(), 1);
    log->info("started a private Xvfb on {} ({}x{}), admitting only holders of its cookie ({})", display_,
              vo.size.width, vo.size.height, xvfb_->authority_file());
    if (!xvfb_->framebuffer_warning().empty())
      log->warn("the private Xvfb's {}: other local users may see the screen", xvfb_->framebuffer_warning());
  }
  if (!config.exec.empty()) {
    ChildOptions co;
    co.argv = {"/bin/sh", "-c", config.exec};
    co.env = {"DISPLAY=" + display_};
    if (xvfb_) co.env.push_back("XAUTHORITY=" + xvfb_->authority_file());
    co.quiet = false;
    program_ = std::make_unique<ChildProcess>(co);
    log->info("started `{}` on {} (pid {})", config.exec, display_, program_->pid());
  }
}

DesktopWiring::~DesktopWiring() {
  if (!xvfb_) return;
  if (saved_xauthority_) setenv("XAUTHORITY", saved_xauthority_->c_str(), 1);
  else unsetenv("XAUTHORITY");
}

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
