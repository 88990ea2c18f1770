#include "platform/x11/xcb_event_watch.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <cstdlib>

namespace voxl::platform::x11 {

struct XcbEventWatch::Impl : std::enable_shared_from_this<Impl> {
  Impl(boost::asio::io_context& io, xcb_connection_t* conn) : c(conn), sd(io, xcb_get_file_descriptor(conn)) {}

  void arm() {
    sd.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                  [weak = weak_from_this()](const boost::system::error_code& ec) {
                    auto self = weak.lock();
                    if (!self || ec) return;
                    self->drain();
                    if (!self->lost) self->arm();
                  });
  }

  void drain() {
    if (lost) return;
    while (xcb_generic_event_t* ev = xcb_poll_for_event(c)) {
      on_event(ev);
      std::free(ev);
    }
    if (xcb_connection_has_error(c)) {
      lost = true;
      if (on_lost) on_lost();
    }
  }

  xcb_connection_t* c;
  boost::asio::posix::stream_descriptor sd;
  std::function<void(xcb_generic_event_t*)> on_event;
  std::function<void()> on_lost;
  bool lost = false;
};

XcbEventWatch::XcbEventWatch(boost::asio::io_context& io, xcb_connection_t* c,
                             std::function<void(xcb_generic_event_t*)> on_event, std::function<void()> on_lost)
    : impl_(std::make_shared<Impl>(io, c)) {
  impl_->on_event = std::move(on_event);
  impl_->on_lost = std::move(on_lost);
  impl_->drain();
  impl_->arm();
}

XcbEventWatch::~XcbEventWatch() {
  // The descriptor belongs to XCB: stop watching it without closing it.
  boost::system::error_code ignored;
  impl_->sd.cancel(ignored);
  impl_->sd.release();
  impl_->on_event = nullptr;
  impl_->on_lost = nullptr;
  impl_->lost = true;
}

void XcbEventWatch::drain() { impl_->drain(); }

}  // namespace voxl::platform::x11
