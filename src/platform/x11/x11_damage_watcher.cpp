#include "platform/x11/x11_damage_watcher.h"

#include <poll.h>

#include <boost/asio/post.hpp>

#include <cstdlib>

#include "platform/x11/damage_tracker.h"
#include "platform/x11/xcb_connection.h"

namespace voxl::platform::x11 {

namespace asio = boost::asio;

X11DamageWatcher::X11DamageWatcher(asio::io_context& io, const std::string& display)
    : io_(io),
      conn_(std::make_unique<XcbConnection>(display)),
      damage_(std::make_unique<DamageTracker>(conn_->get(), conn_->root())),
      socket_(io, conn_->fd()) {
  xcb_flush(conn_->get());
}

X11DamageWatcher::~X11DamageWatcher() {
  *alive_ = false;
  // The descriptor belongs to XCB: stop watching it without closing it.
  boost::system::error_code ignored;
  socket_.cancel(ignored);
  socket_.release();
}

void X11DamageWatcher::async_wait(std::function<void()> ready) {
  ready_ = std::move(ready);
  if (failed()) {
    asio::post(io_, [this, alive = alive_] {
      if (*alive) deliver();
    });
    return;
  }
  // Asio reports the next time the socket turns readable: bytes that came
  // while no wait was queued (during the owner's round trips) would sit
  // unnoticed until more came, so look once now.
  pollfd p{conn_->fd(), POLLIN, 0};
  if (::poll(&p, 1, 0) > 0) {
    asio::post(io_, [this, alive = alive_] {
      if (*alive) deliver();
    });
    return;
  }
  socket_.async_wait(asio::posix::stream_descriptor::wait_read,
                     [this, alive = alive_](const boost::system::error_code& ec) {
                       if (!*alive || ec == asio::error::operation_aborted) return;
                       deliver();  // readable, or the socket failed: poll() and failed() tell
                     });
}

void X11DamageWatcher::deliver() {
  if (auto ready = std::move(ready_)) {
    ready_ = nullptr;
    ready();
  }
}

bool X11DamageWatcher::poll() {
  while (xcb_generic_event_t* e = xcb_poll_for_event(conn_->get())) {
    damage_->handle_event(e);
    std::free(e);
  }
  return damage_->notified();
}

void X11DamageWatcher::sync() {
  if (!failed()) conn_->sync();
}

bool X11DamageWatcher::take(std::vector<Rect>& out) {
  if (failed()) return false;
  return damage_->take(out);
}

bool X11DamageWatcher::failed() const { return conn_->failed(); }

}  // namespace voxl::platform::x11
