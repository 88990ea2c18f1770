// capture::DamageWatcher for a wlroots compositor's output: a connection of
// its own with one screencopy frame asked for after damage
// (screencopy_stream.h), so the compositor answers once something changes,
// with the boxes that did, and is asked again only at take(). While nobody
// takes, nothing is copied; each report costs the compositor one copy of
// the output into this watcher's picture.
//
// Threads and blocking: see capture::DamageWatcher; construct and destroy on
// the loop thread of `io`, before the io_context is destroyed.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <functional>
#include <memory>
#include <string>

#include "capture/damage_watcher.h"

namespace voxl::platform::wayland {

class ScreencopyStream;
class WaylandDisplay;

class ScreencopyDamageWatcher final : public capture::DamageWatcher {
 public:
  // Throws std::runtime_error when the compositor cannot be reached or
  // offers no screencopy.
  ScreencopyDamageWatcher(boost::asio::io_context& io, const std::string& display);
  ~ScreencopyDamageWatcher() override;
  ScreencopyDamageWatcher(const ScreencopyDamageWatcher&) = delete;
  ScreencopyDamageWatcher& operator=(const ScreencopyDamageWatcher&) = delete;

  void async_wait(std::function<void()> ready) override;
  bool poll() override;
  void sync() override;
  bool take(std::vector<Rect>& out) override;
  bool failed() const override;

 private:
  void deliver();
  // Waits for the socket to be readable.
  void arm();
  // The stream's answer is in (or the connection failed).
  bool answered() const;
  // Something to report: a failure, or an answer not reported since the
  // last take().
  bool due() const;

  boost::asio::io_context& io_;
  std::unique_ptr<WaylandDisplay> display_;
  std::unique_ptr<ScreencopyStream> stream_;
  boost::asio::posix::stream_descriptor socket_;  // libwayland's descriptor, released (not closed) at the end
  std::function<void()> ready_;
  bool reported_ = false;  // the answer in hand was reported; quiet until take()
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::platform::wayland
