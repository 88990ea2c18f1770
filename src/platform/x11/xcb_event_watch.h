// Runs an XCB connection's events on the loop: waits for its socket to turn
// readable (no polling) and hands every event to a callback. Requests with
// replies read events into XCB's queue behind the socket's back, so code
// that makes one outside the callback calls drain() afterwards.
//
// Threads: loop thread only. Does not own the connection, which must
// outlive it; destroy it before the io_context.
#pragma once

#include <functional>
#include <memory>

#include <xcb/xcb.h>

namespace boost::asio {
class io_context;
}

namespace voxl::platform::x11 {

class XcbEventWatch {
 public:
  // `on_event` gets each event (freed after it returns); `on_lost` once,
  // when the connection fails.
  XcbEventWatch(boost::asio::io_context& io, xcb_connection_t* c, std::function<void(xcb_generic_event_t*)> on_event,
                std::function<void()> on_lost);
  ~XcbEventWatch();
  XcbEventWatch(const XcbEventWatch&) = delete;
  XcbEventWatch& operator=(const XcbEventWatch&) = delete;

  // Handles every event already read or waiting on the socket.
  void drain();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace voxl::platform::x11
