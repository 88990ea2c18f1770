// voxl-demo's side of the CLIPBOARD selection. It watches who owns it
// (XFixes SelectSelectionInput), asks each new owner for its text
// (ConvertSelection to UTF8_STRING, STRING when that is refused) and keeps
// what there is to show: at most `max_chars` characters of the first
// `max_bytes` bytes. offer() makes the demo the owner with the given text,
// which it then hands to whoever asks (voxl, and so the viewer's browser).
// A transfer too large for one property (INCR) is not read: the box says so.
//
// Not thread-safe: the X thread only. Borrows the connection and window.
// The constructor makes round trips (atoms, XFixes' version, the current
// owner); handle() makes one per answer read.
#pragma once

#include <xcb/xcb.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace voxl::demo {

class ClipboardLink {
 public:
  struct View {
    std::u32string text;     // tabs as spaces, other control characters as U+FFFD
    size_t bytes = 0;        // the owner's answer, as far as read
    bool truncated = false;  // text is the first part of a longer one
    bool ours = false;       // the demo owns the clipboard
    std::string note;        // when there is no text: why
  };

  ClipboardLink(xcb_connection_t* c, xcb_window_t window, size_t max_bytes, size_t max_chars);

  // Handles `ev` when it concerns the clipboard; true when view() changed.
  bool handle(const xcb_generic_event_t* ev);
  // Owns the clipboard from `time` (the click's) with `text`; false when
  // the server gave it to someone else.
  bool offer(std::u32string_view text, xcb_timestamp_t time);
  const View& view() const { return view_; }

 private:
  void ask(xcb_atom_t target, xcb_timestamp_t time);
  void read_answer(const xcb_selection_notify_event_t* ev);
  void answer_request(const xcb_selection_request_event_t* req);
  void show(std::u32string text, size_t bytes, bool truncated);
  void show_note(std::string note);

  xcb_connection_t* c_;
  xcb_window_t window_;
  size_t max_bytes_, max_chars_;
  uint8_t xfixes_event_ = 0;  // 0: the server has no XFixes
  xcb_atom_t clipboard_ = 0, utf8_ = 0, targets_ = 0, text_ = 0, plain_utf8_ = 0, incr_ = 0, property_ = 0;
  std::string offered_;  // UTF-8, while the demo owns the clipboard
  bool owned_ = false;
  View view_;
};

}  // namespace voxl::demo
