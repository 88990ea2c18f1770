// Where each part of voxl-demo's window goes, worked out from the window's
// size alone (no font metrics), so that a test can find the parts on a
// screenshot. The left column holds the keyboard box, the clipboard box and
// the tone button; the canvas takes the right; a header with the frame
// counter and a track with a moving block run across the top.
//
// Pure functions; any thread.
#pragma once

namespace voxl::demo {

struct Area {
  int x = 0, y = 0, w = 0, h = 0;
  int right() const { return x + w; }
  int bottom() const { return y + h; }
  bool contains(int px, int py) const { return px >= x && py >= y && px < x + w && py < y + h; }
  bool empty() const { return w <= 0 || h <= 0; }
};

struct Layout {
  int width = 0, height = 0;
  Area header;  // the title on the left, the frame counter on the right
  Area track;   // the moving block's strip under the header

  Area text_label;
  Area text_box;  // the typed text
  Area copy_button;
  Area clear_text_button;

  Area clipboard_label;
  Area clipboard_box;  // the CLIPBOARD selection's text

  Area tone_button;
  Area tone_status;  // what the sound is doing, under the button

  Area canvas_label;
  Area clear_canvas_button;
  Area canvas;  // drawn on; its frame is drawn just outside it
};

// The smallest window laid out as designed; a smaller one gets this
// layout, clipped.
inline constexpr int kMinWidth = 480, kMinHeight = 360;

Layout layout_for(int width, int height);

}  // namespace voxl::demo
