#include "demo_screen.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "demo_style.h"
#include "text_wrap.h"
#include "utf8.h"

namespace voxl::demo {

namespace {

using Face = Painter::Face;

constexpr int kInset = 6;        // between a box's edge and its text
constexpr int kBlockWidth = 80;  // the moving block
constexpr int kCounterColumns = 23;  // "frame 1234567 · 120 fps"

Area inset(const Area& a, int by) { return {a.x + by, a.y + by, a.w - 2 * by, a.h - 2 * by}; }

std::u32string ascii(const std::string& s) { return utf8_decode(s, s.size()); }

// The first of `choices` at most `room` characters long; else the last.
std::u32string_view pick(std::initializer_list<std::u32string_view> choices, size_t room) {
  for (std::u32string_view c : choices)
    if (c.size() <= room) return c;
  return *(choices.end() - 1);
}

}  // namespace

Area DemoScreen::area_of(Button b) const {
  switch (b) {
    case Button::kCopy: return layout_.copy_button;
    case Button::kClearText: return layout_.clear_text_button;
    case Button::kTone: return layout_.tone_button;
    case Button::kClearCanvas: return layout_.clear_canvas_button;
    case Button::kNone: break;
  }
  return {};
}

Button DemoScreen::button_at(int x, int y) const {
  for (Button b : {Button::kCopy, Button::kClearText, Button::kTone, Button::kClearCanvas})
    if (area_of(b).contains(x, y)) return b;
  return Button::kNone;
}

void DemoScreen::draw_label(const Area& a, std::initializer_list<std::u32string_view> choices,
                            const std::u32string& tail) {
  painter_.fill(a, style::kBackground);
  const size_t room = painter_.columns(Face::kBold, a.w);
  const std::u32string_view text = pick(choices, room > tail.size() ? room - tail.size() : 0);
  painter_.left_text(Face::kBold, a, 0, std::u32string(text) + tail, style::kLabel, style::kBackground);
}

void DemoScreen::draw_frame() {
  const Layout& l = layout_;
  painter_.fill({0, 0, std::max(l.width, kMinWidth), std::max(l.height, kMinHeight)}, style::kBackground);
  painter_.fill(l.header, style::kHeader);
  const std::u32string title = U"voxl demo";
  painter_.left_text(Face::kBold, l.header, 12, title, style::kTitle, style::kHeader);
  const int hint_x = 12 + int(title.size() + 2) * painter_.char_width(Face::kBold);
  const int counter_x = l.header.w - 12 - kCounterColumns * painter_.char_width(Face::kBody);
  const Area hint{l.header.x + hint_x, l.header.y, counter_x - hint_x - 12, l.header.h};
  const size_t room = painter_.columns(Face::kBody, hint.w);
  painter_.left_text(Face::kBody, hint, 0,
                     pick({U"type · drag to draw · copy and paste · play a tone", U"type · draw · paste · play"}, room),
                     style::kLabel, style::kHeader);
  painter_.fill(l.track, style::kTrack);
  block_x_ = -1;

  draw_label(l.text_label, {U"Keyboard: what you type shows here", U"Keyboard"});
  draw_label(l.canvas_label, {U"Canvas: hold a mouse button and drag to draw", U"Canvas: drag to draw", U"Canvas"});
  painter_.frame(l.text_box, style::kBoxFrame);
  painter_.frame(l.clipboard_box, style::kBoxFrame);
  painter_.frame(l.canvas, style::kBoxFrame);
}

void DemoScreen::draw_tick(uint64_t frame, int fps) {
  const Layout& l = layout_;
  char counter[64];
  std::snprintf(counter, sizeof counter, "frame %llu · %d fps", static_cast<unsigned long long>(frame % 10000000),
                fps);
  std::u32string text = utf8_decode(counter, sizeof counter);
  // Right-aligned in a field of fixed width, so nothing stale is left.
  if (text.size() < size_t(kCounterColumns)) text.insert(0, size_t(kCounterColumns) - text.size(), U' ');
  const int cw = painter_.char_width(Face::kBody);
  const Area where{l.header.w - 12 - kCounterColumns * cw, l.header.y, kCounterColumns * cw, l.header.h};
  painter_.left_text(Face::kBody, where, 0, text, style::kCounter, style::kHeader);

  // Back and forth along the track, a few seconds each way.
  const int range = std::max(1, l.track.w - kBlockWidth);
  const int speed = std::max(2, l.track.w / 240);
  const int at = int((frame * uint64_t(speed)) % uint64_t(2 * range));
  const int x = at < range ? at : 2 * range - at;
  const int y = l.track.y + 2, h = l.track.h - 4;
  if (block_x_ >= 0) painter_.fill({block_x_, y, kBlockWidth, h}, style::kTrack);
  painter_.fill({x, y, kBlockWidth, h}, style::kBlock);
  block_x_ = x;
}

void DemoScreen::draw_text_box(const TypedText& typed) {
  const Area box = layout_.text_box, in = inset(box, kInset);
  painter_.fill(box, style::kBox);
  const int cw = painter_.char_width(Face::kBody), lh = painter_.line_height(Face::kBody);
  const size_t cols = std::max<size_t>(1, painter_.columns(Face::kBody, in.w));
  const size_t fit = size_t(std::max(1, in.h / lh));
  std::vector<std::u32string> rows = wrap_rows(typed.text(), cols);
  if (rows.back().size() >= cols) rows.emplace_back();  // the cursor goes on the next row
  const size_t first = rows.size() > fit ? rows.size() - fit : 0;
  for (size_t i = first; i < rows.size(); ++i)
    painter_.text(Face::kBody, in.x, in.y + int(i - first) * lh, rows[i], style::kText, style::kBox, cols);
  const int cursor_y = in.y + int(rows.size() - 1 - first) * lh;
  painter_.fill({in.x + int(rows.back().size()) * cw, cursor_y, std::max(2, cw / 2), lh}, style::kCursor);
  if (typed.empty())
    painter_.text(Face::kBody, in.x + 2 * cw, in.y, U"(click here and type)", style::kNote, style::kBox, cols - 2);
}

void DemoScreen::draw_clipboard(const ClipboardLink::View& view) {
  std::u32string tail;
  if (view.ours) tail = U" · from Copy";
  else if (view.bytes > 0) tail = U" · " + ascii(std::to_string(view.bytes)) + U" bytes";
  draw_label(layout_.clipboard_label, {U"Clipboard: what you copy shows here", U"Clipboard"}, tail);

  const Area box = layout_.clipboard_box, in = inset(box, kInset);
  painter_.fill(box, style::kBox);
  const int lh = painter_.line_height(Face::kBody);
  const size_t cols = std::max<size_t>(4, painter_.columns(Face::kBody, in.w));
  if (!view.note.empty()) {
    painter_.text(Face::kBody, in.x, in.y, U"(" + ascii(view.note) + U")", style::kNote, style::kBox, cols);
    return;
  }
  const size_t fit = size_t(std::max(1, in.h / lh));
  std::vector<std::u32string> rows = wrap_rows(view.text, cols);
  const bool more = rows.size() > fit || view.truncated;
  rows.resize(std::min(rows.size(), fit));
  if (more) {
    std::u32string& last = rows.back();
    last = last.substr(0, std::min(last.size(), cols - 3)) + U"...";
  }
  for (size_t i = 0; i < rows.size(); ++i)
    painter_.text(Face::kBody, in.x, in.y + int(i) * lh, rows[i], style::kText, style::kBox, cols);
}

void DemoScreen::draw_button(Button b, bool pressed, bool enabled) {
  switch (b) {
    case Button::kCopy: return draw_button(area_of(b), {U"Copy typed text", U"Copy"}, pressed, enabled);
    case Button::kClearText: return draw_button(area_of(b), {U"Clear text", U"Clear"}, pressed, enabled);
    case Button::kClearCanvas: return draw_button(area_of(b), {U"Clear canvas", U"Clear"}, pressed, enabled);
    case Button::kTone:  // draw_tone() says more
    case Button::kNone: return;
  }
}

void DemoScreen::draw_button(const Area& a, std::initializer_list<std::u32string_view> labels, bool pressed,
                             bool enabled) {
  const uint32_t colour = !enabled ? style::kButtonOff : pressed ? style::kButtonPressed : style::kButton;
  painter_.fill(a, colour);
  painter_.centred_text(Face::kBold, a, pick(labels, painter_.columns(Face::kBold, a.w - 8)),
                        enabled ? style::kButtonText : style::kButtonOffText, colour);
}

void DemoScreen::draw_tone(const TonePlayer::Status& status, bool pressed, int hz) {
  using State = TonePlayer::State;
  const Area button = area_of(Button::kTone);
  switch (status.state) {
    case State::kChecking:
    case State::kReady: draw_button(button, {U"Play a tone", U"Tone"}, pressed, true); break;
    case State::kPlaying: draw_button(button, {U"Playing...", U"Playing"}, true, true); break;
    // Still a button: a press looks for a server again.
    case State::kUnavailable: draw_button(button, {U"No sound (retry)", U"No sound"}, pressed, false); break;
  }
  const std::u32string freq = ascii(std::to_string(hz)) + U" Hz";
  const std::u32string why = ascii(status.why);
  std::vector<std::u32string> lines;  // the first that fits is shown
  uint32_t colour = style::kLabel;
  switch (status.state) {
    case State::kChecking: lines = {U"looking for PulseAudio..."}; break;
    case State::kReady:
      lines = {freq + U" to PulseAudio's default sink", freq + U" to the default sink", U"ready"};
      colour = style::kSoundReady;
      break;
    case State::kPlaying:
      lines = {U"playing " + freq + U"...", U"playing"};
      colour = style::kSoundPlaying;
      break;
    case State::kUnavailable:
      lines = {U"sound unavailable: " + why, U"no PulseAudio: " + why, U"no PulseAudio"};
      colour = style::kSoundOff;
      break;
  }
  const size_t room = painter_.columns(Face::kBody, layout_.tone_status.w);
  std::u32string line = lines.back();
  for (const auto& l : lines)
    if (l.size() <= room) {
      line = l;
      break;
    }
  painter_.fill(layout_.tone_status, style::kBackground);
  painter_.left_text(Face::kBody, layout_.tone_status, 0, line, colour, style::kBackground);
}

}  // namespace voxl::demo
