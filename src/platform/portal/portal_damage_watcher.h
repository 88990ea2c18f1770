// capture::DamageWatcher for a desktop shared through the portal: a PipeWire
// stream of its own on the monitor's node, run on the loop, reporting the
// boxes of each picture's damage. The desktop sends pictures only when
// something changes, so an idle desktop costs nothing; while it changes,
// each picture costs the compositor one more copy into this watcher's
// buffers (a stream cannot be asked for damage alone, and a paused one
// would miss what changed meanwhile).
//
// Threads and blocking: see capture::DamageWatcher; construct and destroy on
// the loop thread of `io`, before the io_context is destroyed. The
// constructor waits up to 2 s for the first picture, the baseline the
// damage after it is counted from.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <functional>
#include <memory>

#include "capture/damage_watcher.h"

namespace voxl::platform::portal {

class PipewireStream;
class PortalSession;

class PortalDamageWatcher final : public capture::DamageWatcher {
 public:
  // Throws std::runtime_error when the session has ended or the stream
  // cannot be connected.
  PortalDamageWatcher(boost::asio::io_context& io, const std::shared_ptr<PortalSession>& session);
  ~PortalDamageWatcher() override;
  PortalDamageWatcher(const PortalDamageWatcher&) = delete;
  PortalDamageWatcher& operator=(const PortalDamageWatcher&) = delete;

  void async_wait(std::function<void()> ready) override;
  bool poll() override;
  void sync() override;
  bool take(std::vector<Rect>& out) override;
  bool failed() const override;

 private:
  void deliver();

  boost::asio::io_context& io_;
  std::unique_ptr<PipewireStream> stream_;
  boost::asio::posix::stream_descriptor loop_;  // the stream's, released (not closed) at the end
  std::function<void()> ready_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::platform::portal
