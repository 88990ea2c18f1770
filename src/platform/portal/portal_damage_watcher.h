// capture::DamageWatcher for a desktop shared through the portal: a reader
// of the portal session's PipeWire stream (pipewire_stream.h; its news
// waited for on the loop), reporting the boxes of each picture's damage.
// The desktop sends pictures only when something changes, so an idle
// desktop costs nothing, and the stream is the capturer's too: watching
// costs the compositor no copy of its own.
//
// Threads and blocking: see capture::DamageWatcher; construct and destroy on
// the loop thread of `io`, before the io_context is destroyed. The
// constructor takes what the stream holds as the baseline the damage after
// it is counted from (a stream with no picture yet reports its first as a
// change). sync() does nothing: PipeWire cannot be asked whether the
// compositor has sent what was drawn. failed() reads the session's bus.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <functional>
#include <memory>

#include "capture/damage_watcher.h"

namespace voxl::platform::portal {

class PortalSession;
class StreamReader;

class PortalDamageWatcher final : public capture::DamageWatcher {
 public:
  // Throws std::runtime_error when the session has ended or the stream
  // cannot be connected.
  PortalDamageWatcher(boost::asio::io_context& io, std::shared_ptr<PortalSession> session);
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
  // Waits on the loop for the stream's next news.
  void arm();

  boost::asio::io_context& io_;
  std::shared_ptr<PortalSession> session_;
  std::unique_ptr<StreamReader> reader_;
  boost::asio::posix::stream_descriptor news_;  // the stream's news_fd, released (not closed) at the end
  std::function<void()> ready_;
  bool reported_ = false;  // news given to `ready` and not yet taken
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::platform::portal
