// capture::DamageWatcher for an X11 screen: its own XCB connection with XDamage on
// the root window, apart from the video capturer's, so it runs with no
// viewer and never disturbs the capture. async_wait() waits on the
// connection's socket on the loop (the descriptor stays XCB's).
//
// Threads and blocking: see capture::DamageWatcher; construct and destroy
// on the loop thread of `io`, before the io_context is destroyed.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <functional>
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
  X11DamageWatcher(boost::asio::io_context& io, const std::string& display);
  ~X11DamageWatcher() override;
  X11DamageWatcher(const X11DamageWatcher&) = delete;
  X11DamageWatcher& operator=(const X11DamageWatcher&) = delete;

  void async_wait(std::function<void()> ready) override;
  bool poll() override;
  void sync() override;
  bool take(std::vector<Rect>& out) override;
  bool failed() const override;

 private:
  void deliver();

  boost::asio::io_context& io_;
  std::unique_ptr<XcbConnection> conn_;
  std::unique_ptr<DamageTracker> damage_;
  boost::asio::posix::stream_descriptor socket_;  // XCB's descriptor, released (not closed) at the end
  std::function<void()> ready_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::platform::x11
