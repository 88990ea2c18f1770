#include "platform/portal/portal_damage_watcher.h"

#include <boost/asio/post.hpp>

#include "platform/portal/pipewire_stream.h"
#include "platform/portal/portal_session.h"

namespace voxl::platform::portal {

namespace asio = boost::asio;

PortalDamageWatcher::PortalDamageWatcher(asio::io_context& io, const std::shared_ptr<PortalSession>& session)
    : io_(io),
      stream_(std::make_unique<PipewireStream>(session->open_pipewire_remote(), session->stream().node,
                                               std::chrono::seconds(10))),
      loop_(io, stream_->loop_fd()) {
  stream_->wait(std::chrono::steady_clock::now() + std::chrono::seconds(2), -1);
  stream_->mark_read();
}

PortalDamageWatcher::~PortalDamageWatcher() {
  *alive_ = false;
  boost::system::error_code ignored;
  loop_.cancel(ignored);
  loop_.release();
  stream_.reset();
}

void PortalDamageWatcher::async_wait(std::function<void()> ready) {
  ready_ = std::move(ready);
  stream_->dispatch();
  if (stream_->fresh() || failed()) {
    asio::post(io_, [this, alive = alive_] {
      if (*alive) deliver();
    });
    return;
  }
  loop_.async_wait(asio::posix::stream_descriptor::wait_read, [this, alive = alive_](const boost::system::error_code& ec) {
    if (!*alive || ec == asio::error::operation_aborted) return;
    deliver();  // work for the loop, or it failed: poll() and failed() tell
  });
}

void PortalDamageWatcher::deliver() {
  if (auto ready = std::move(ready_)) {
    ready_ = nullptr;
    ready();
  }
}

bool PortalDamageWatcher::poll() {
  stream_->dispatch();
  return stream_->fresh();
}

void PortalDamageWatcher::sync() { stream_->dispatch(); }

bool PortalDamageWatcher::take(std::vector<Rect>& out) {
  stream_->dispatch();
  if (failed()) return false;
  if (!stream_->fresh()) return true;
  if (stream_->whole()) out.push_back(Rect::from_size(stream_->size()));
  else out.insert(out.end(), stream_->damage().begin(), stream_->damage().end());
  stream_->mark_read();
  return true;
}

bool PortalDamageWatcher::failed() const { return !stream_->error().empty(); }

}  // namespace voxl::platform::portal
