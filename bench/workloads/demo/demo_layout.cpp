#include "demo_layout.h"

#include <algorithm>

namespace voxl::demo {

namespace {

constexpr int kPad = 12;      // between parts and around the edges
constexpr int kRow = 30;      // a label's or a button's height
constexpr int kGap = 4;       // between a label and its box
constexpr int kHeader = 44;
constexpr int kTrack = 12;

}  // namespace

Layout layout_for(int width, int height) {
  Layout l;
  l.width = width;
  l.height = height;
  const int w = std::max(width, kMinWidth), h = std::max(height, kMinHeight);
  l.header = {0, 0, w, kHeader};
  l.track = {0, kHeader, w, kTrack};

  const int top = kHeader + kTrack + kPad;
  const int left_w = (w - 3 * kPad) * 42 / 100;
  const int x = kPad;

  // Left column, top to bottom: label, text box, its buttons; label,
  // clipboard box; the tone button and its status. The boxes share what
  // the fixed rows leave, the text box a little more.
  const int fixed = 5 * kRow + 3 * kGap + 3 * kPad;
  const int boxes = std::max(2 * kRow, h - top - kPad - fixed);
  const int text_h = boxes * 55 / 100, clip_h = boxes - text_h;
  int y = top;
  l.text_label = {x, y, left_w, kRow};
  y += kRow + kGap;
  l.text_box = {x, y, left_w, text_h};
  y += text_h + kPad;
  const int button_w = (left_w - kPad) / 2;
  l.copy_button = {x, y, button_w, kRow};
  l.clear_text_button = {x + left_w - button_w, y, button_w, kRow};
  y += kRow + kPad;
  l.clipboard_label = {x, y, left_w, kRow};
  y += kRow + kGap;
  l.clipboard_box = {x, y, left_w, clip_h};
  y += clip_h + kPad;
  l.tone_button = {x, y, std::min(left_w, 200), kRow};
  y += kRow + kGap;
  l.tone_status = {x, y, left_w, kRow};

  // Right column: the canvas's label and clear button, then the canvas
  // down to the bottom edge.
  const int rx = x + left_w + kPad, right_w = w - rx - kPad;
  const int clear_w = std::min(120, right_w / 3);
  l.canvas_label = {rx, top, right_w - clear_w - kPad, kRow};
  l.clear_canvas_button = {rx + right_w - clear_w, top, clear_w, kRow};
  const int canvas_y = top + kRow + kGap + 1;  // 1: the frame around it
  l.canvas = {rx + 1, canvas_y, right_w - 2, std::max(kRow, h - kPad - 1 - canvas_y)};
  return l;
}

}  // namespace voxl::demo
