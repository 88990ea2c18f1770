// platform::WindowRounder for an X display: the Shape extension cuts the
// corners of every top-level window (a child of the root: a window
// manager's frame, or an override-redirect or unmanaged window when there
// is no window manager), bounding and clip shape alike, to the radius its
// title asks for (WindowRoundingOptions). Event-driven on a connection of
// its own, never polling: the root's SubstructureNotify (a window made,
// mapped, resized, reparented, gone), each top-level window's
// SubstructureNotify (a client put into a frame) and PropertyNotify on the
// window and its client (a new title). A window that already has a
// bounding shape of its own when first mapped is left alone. Destroying
// the rounder puts every window it shaped back to square.
//
// Threads: loop thread of the io_context given; destroy before it.
#pragma once

#include <boost/asio/io_context.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>

#include <xcb/xcb.h>

#include "base/geometry.h"
#include "base/logging.h"
#include "platform/window_rounder.h"

namespace voxl::platform::x11 {

class XcbConnection;
class XcbEventWatch;

class X11WindowRounder final : public WindowRounder {
 public:
  // Null with `why` set when the display cannot be opened or has no Shape
  // extension.
  static std::unique_ptr<X11WindowRounder> open(boost::asio::io_context& io, const std::string& display,
                                                WindowRoundingOptions options, Logger log, std::string& why);
  ~X11WindowRounder() override;
  X11WindowRounder(const X11WindowRounder&) = delete;
  X11WindowRounder& operator=(const X11WindowRounder&) = delete;

  size_t rounded() const override;

 private:
  struct Top {
    xcb_window_t client = XCB_NONE;  // the window with the title (the top itself without a frame)
    Rect geometry;                   // the top's, border not included
    int border = 0;
    bool mapped = false;
    bool own_shape = false;          // shaped by its program: left alone
    std::optional<int> applied;      // the radius of our shape on it now
    Size applied_for;                // and the size it was cut for
  };

  X11WindowRounder(boost::asio::io_context& io, std::unique_ptr<XcbConnection> conn, WindowRoundingOptions options,
                   Logger log);
  void start();
  void on_event(xcb_generic_event_t* e);
  // Starts following a child of the root (attributes, geometry, client).
  void track(xcb_window_t w);
  void untrack(xcb_window_t w);
  void find_client(xcb_window_t top, Top& t);
  std::string title_of(xcb_window_t w);
  int radius_for(const Top& t);
  // Cuts, re-cuts or removes the shape as the window's title and size ask.
  void apply(xcb_window_t w, Top& t);
  void square(xcb_window_t w);
  xcb_atom_t atom(const char* name);

  std::unique_ptr<XcbConnection> conn_;
  boost::asio::io_context& io_;
  WindowRoundingOptions options_;
  Logger log_;
  xcb_atom_t net_wm_name_ = XCB_NONE;
  xcb_atom_t utf8_string_ = XCB_NONE;
  std::map<xcb_window_t, Top> tops_;  // bounded by the X server's windows
  std::unique_ptr<XcbEventWatch> watch_;
};

}  // namespace voxl::platform::x11
