// The area voxl-demo draws on: while a mouse button is held, the pointer's
// path is drawn as a line, each stroke in the next colour of the wheel.
// The drawing is kept in a pixmap of the canvas's size, so an Expose or a
// new layout shows it again; place() keeps what fits of it.
//
// Not thread-safe: the X thread only. Borrows the connection and window;
// owns its pixmap and graphics contexts, freed on destruction.
#pragma once

#include <xcb/xcb.h>

#include <cstdint>

#include "demo_layout.h"

namespace voxl::demo {

class Canvas {
 public:
  Canvas(xcb_connection_t* c, xcb_window_t window, uint8_t depth);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  // Puts the canvas at `area` of the window (a new size keeps the old
  // drawing's top-left part); show() draws it there.
  void place(const Area& area);
  // Copies the drawing to the window again (after an Expose).
  void show();

  // A stroke from window point (x, y): a dot there. extend() draws on to
  // the next point; end() finishes it. Points outside the canvas draw
  // only their part inside it.
  void begin(int x, int y);
  void extend(int x, int y);
  void end() { drawing_ = false; }
  bool drawing() const { return drawing_; }

  void clear();

 private:
  void make_pixmap(int w, int h);
  // Copies the pixmap's part around the segment (x0,y0)-(x1,y1), canvas
  // coordinates, to the window.
  void show_around(int x0, int y0, int x1, int y1);

  xcb_connection_t* c_;
  xcb_window_t window_;
  uint8_t depth_;
  xcb_pixmap_t pixmap_ = 0;
  xcb_gcontext_t pen_ = 0;   // on the pixmap: the stroke's colour and width
  xcb_gcontext_t copy_ = 0;  // pixmap to window
  Area area_;
  bool drawing_ = false;
  int last_x_ = 0, last_y_ = 0;  // canvas coordinates
  int strokes_ = 0;
};

}  // namespace voxl::demo
