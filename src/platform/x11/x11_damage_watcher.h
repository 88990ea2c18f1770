// capture::DamageWatcher for an X11 screen: its own XCB connection with XDamage on
// the root window, apart from the video capturer's, so it runs with no
// viewer and never disturbs the capture.
//
// Threads and blocking: see capture::DamageWatcher.
#pragma once

#include <memory>
#include <string>

#include "capture/damage_watcher.h"

namespace voxl::platform::x11 {

class XcbConnection;
class DamageTracker;

class X11DamageWatcher final : public capture::DamageWatcher {
 public:
  // Throws std::runtime_error when the display cannot be opened or lacks
  // DAMAGE/XFIXES. `display` empty means $DISPLAY.
  explicit X11DamageWatcher(const std::string& display);
  ~X11DamageWatcher() override;

  int fd() const override;
  bool poll() override;
  void sync() override;
  bool take(std::vector<Rect>& out) override;
  bool failed() const override;

 private:
  std::unique_ptr<XcbConnection> conn_;
  std::unique_ptr<DamageTracker> damage_;
};

}  // namespace voxl::platform::x11
