// input::CursorSource for X11: XFixes cursor notifications on its own XCB
// connection, handled on the loop as they come (no polling). Images are read
// once per cursor serial and kept (bounded), so a shape the desktop returns
// to costs no round trip. While it exists the server hides its own pointer
// (XFixes HideCursor), so a software cursor never reaches the picture.
//
// Threads: loop thread only; destroy before the io_context. Blocking: the
// constructor and each new shape make one round trip.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "base/logging.h"
#include "input/cursor_source.h"

namespace boost::asio {
class io_context;
}

namespace voxl::platform::x11 {
class XcbConnection;
}

namespace voxl::platform::x11 {

class XcbEventWatch;

class XFixesCursorSource final : public input::CursorSource {
 public:
  // Throws std::runtime_error when the display cannot be opened or lacks XFIXES 2.
  XFixesCursorSource(boost::asio::io_context& io, const std::string& display, Logger log);
  ~XFixesCursorSource() override;

  void set_listener(std::function<void(const input::CursorImagePtr&)> listener) override;
  void set_lost_handler(std::function<void()> on_lost) override { on_lost_ = std::move(on_lost); }
  input::CursorImagePtr current() const override { return current_; }

 private:
  void on_event(const void* event);
  void refresh();

  std::unique_ptr<platform::x11::XcbConnection> conn_;
  Logger log_;
  uint8_t first_event_ = 0;
  std::unique_ptr<XcbEventWatch> watch_;
  std::function<void(const input::CursorImagePtr&)> listener_;
  std::function<void()> on_lost_;
  input::CursorImagePtr current_;
  std::map<uint64_t, input::CursorImagePtr> cache_;  // serial -> image, bounded
};

}  // namespace voxl::platform::x11
