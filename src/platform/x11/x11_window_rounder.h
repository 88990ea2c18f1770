// platform::WindowRounder for an X display: the Shape extension cuts the
// corners of every top-level window (a child of the root: a window
// manager's frame, or an override-redirect or unmanaged window when there
// is no window manager), bounding and clip shape alike, to the radius its
// title asks for (WindowRoundingOptions). Event-driven on a connection of
// its own, never polling: the root's SubstructureNotify (a window made,
// mapped, resized, reparented, gone), each top-level window's
// SubstructureNotify (a client put into a frame) and PropertyNotify on the
// window and its client (a new title). A window whose program gives it a
// shape of its own is left alone; a shape that is just the whole window
// (some window managers set one on every frame, and again on each resize)
// is none, and is cut again when it replaces ours (ShapeNotify). Destroying
// the rounder puts every window it shaped back to square.
//
// Threads: loop thread of the io_context given; destroy before it.
#pragma once

#include <boost/asio/io_context.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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
    std::vector<Rect> applied_rects; // and its rectangles, as the server reports them
  };

  X11WindowRounder(boost::asio::io_context& io, std::unique_ptr<XcbConnection> conn, WindowRoundingOptions options,
                   Logger log);
  void start();
  void on_event(xcb_generic_event_t* e);
  // Starts following a child of the root (attributes, geometry, client).
  void track(xcb_window_t w);
  void untrack(xcb_window_t w);
  void find_client(xcb_window_t top, Top& t);
  // Finds the client again and, if the window is mapped, cuts its shape.
  void refresh(xcb_window_t top, Top& t);
  std::string title_of(xcb_window_t w);
  int radius_for(const Top& t);
  // Cuts, re-cuts or removes the shape as the window's title and size ask.
  void apply(xcb_window_t w, Top& t);
  void square(xcb_window_t w);
  // The window's bounding shape is a shape of its program's: it leaves out
  // part of the whole window (border included).
  bool has_own_shape(xcb_window_t w, const Top& t);
  std::vector<Rect> bounding_rects(xcb_window_t w);
  void on_shape_notify(xcb_window_t w);
  xcb_atom_t atom(const char* name);

  std::unique_ptr<XcbConnection> conn_;
  boost::asio::io_context& io_;
  WindowRoundingOptions options_;
  Logger log_;
  xcb_atom_t net_wm_name_ = XCB_NONE;
  xcb_atom_t utf8_string_ = XCB_NONE;
  uint8_t shape_notify_ = 0;  // the Shape extension's event code
  std::map<xcb_window_t, Top> tops_;  // bounded by the X server's windows
  std::unique_ptr<XcbEventWatch> watch_;
};

}  // namespace voxl::platform::x11
