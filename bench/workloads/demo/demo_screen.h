// Everything voxl-demo draws except the canvas's contents: the header with
// the title and frame counter, the moving block, the labels, buttons and
// boxes, each redrawn on its own when it changes.
//
// Not thread-safe: the X thread only. Borrows the connection and window;
// owns its Painter.
#pragma once

#include <xcb/xcb.h>

#include <cstdint>
#include <string>

#include "clipboard_link.h"
#include "demo_layout.h"
#include "painter.h"
#include "tone_player.h"
#include "typed_text.h"

namespace voxl::demo {

enum class Button { kNone, kCopy, kClearText, kTone, kClearCanvas };

class DemoScreen {
 public:
  DemoScreen(xcb_connection_t* c, xcb_window_t window) : painter_(c, window) {}

  void set_layout(const Layout& layout) { layout_ = layout; }
  const Layout& layout() const { return layout_; }
  // The button under window point (x, y), or kNone.
  Button button_at(int x, int y) const;

  // The background, header, labels and the canvas's frame (not its
  // contents).
  void draw_frame();
  // The frame counter and the moving block for `frame`.
  void draw_tick(uint64_t frame, int fps);
  void draw_text_box(const TypedText& text);
  void draw_clipboard(const ClipboardLink::View& view);
  // A button as pressed (while the mouse holds it) or not, and as able to
  // act now or not. The tone button is drawn by draw_tone().
  void draw_button(Button b, bool pressed, bool enabled);
  // The tone button and the line under it, which says what the sound does.
  void draw_tone(const TonePlayer::Status& status, bool pressed, int hz);

 private:
  Area area_of(Button b) const;
  void draw_button(const Area& a, std::initializer_list<std::u32string_view> labels, bool pressed, bool enabled);
  void draw_label(const Area& a, std::initializer_list<std::u32string_view> choices, const std::u32string& tail = {});

  Painter painter_;
  Layout layout_;
  int block_x_ = -1;  // where the moving block was drawn; -1: nowhere yet
};

}  // namespace voxl::demo
