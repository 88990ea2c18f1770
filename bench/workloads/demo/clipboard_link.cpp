#include "clipboard_link.h"

#include <xcb/xfixes.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "utf8.h"

namespace voxl::demo {

namespace {

xcb_atom_t intern(xcb_connection_t* c, xcb_intern_atom_cookie_t cookie) {
  xcb_intern_atom_reply_t* r = xcb_intern_atom_reply(c, cookie, nullptr);
  const xcb_atom_t a = r ? r->atom : xcb_atom_t(XCB_ATOM_NONE);
  std::free(r);
  return a;
}

xcb_intern_atom_cookie_t ask_atom(xcb_connection_t* c, const char* name) {
  return xcb_intern_atom(c, 0, uint16_t(std::strlen(name)), name);
}

// What the box can draw: newlines kept, tabs as spaces, carriage returns
// (of CR LF) dropped, other control characters as U+FFFD.
std::u32string printable(std::u32string text) {
  std::u32string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char32_t c = text[i];
    if (c == U'\r') {
      if (i + 1 == text.size() || text[i + 1] != U'\n') out.push_back(U'\n');
    } else if (c == U'\t') {
      out.push_back(U' ');
    } else if (c == U'\n' || !(c < 0x20 || (c >= 0x7f && c < 0xa0))) {
      out.push_back(c);
    } else {
      out.push_back(U'\ufffd');
    }
  }
  return out;
}

}  // namespace

ClipboardLink::ClipboardLink(xcb_connection_t* c, xcb_window_t window, size_t max_bytes, size_t max_chars)
    : c_(c), window_(window), max_bytes_(max_bytes), max_chars_(max_chars) {
  const auto clipboard = ask_atom(c_, "CLIPBOARD"), utf8 = ask_atom(c_, "UTF8_STRING"),
             targets = ask_atom(c_, "TARGETS"), text = ask_atom(c_, "TEXT"),
             plain = ask_atom(c_, "text/plain;charset=utf-8"), incr = ask_atom(c_, "INCR"),
             property = ask_atom(c_, "VOXL_DEMO_CLIPBOARD");
  clipboard_ = intern(c_, clipboard);
  utf8_ = intern(c_, utf8);
  targets_ = intern(c_, targets);
  text_ = intern(c_, text);
  plain_utf8_ = intern(c_, plain);
  incr_ = intern(c_, incr);
  property_ = intern(c_, property);

  const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c_, &xcb_xfixes_id);
  if (!ext || !ext->present) {
    show_note("the X server has no XFixes: the clipboard is not watched");
    return;
  }
  // XFixes answers nothing before its version is asked.
  std::free(xcb_xfixes_query_version_reply(c_, xcb_xfixes_query_version(c_, 5, 0), nullptr));
  xcb_xfixes_select_selection_input(c_, window_, clipboard_,
                                    XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER |
                                        XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY |
                                        XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE);
  xfixes_event_ = ext->first_event;

  // Whoever owns it already sends no notification.
  xcb_window_t owner = XCB_WINDOW_NONE;
  if (auto* r = xcb_get_selection_owner_reply(c_, xcb_get_selection_owner(c_, clipboard_), nullptr)) {
    owner = r->owner;
    std::free(r);
  }
  if (owner == XCB_WINDOW_NONE) show_note("empty");
  else ask(utf8_, XCB_CURRENT_TIME);
}

void ClipboardLink::show(std::u32string text, size_t bytes, bool truncated) {
  view_ = {};
  view_.text = printable(std::move(text));
  view_.bytes = bytes;
  view_.truncated = truncated;
  view_.ours = owned_;
  if (view_.text.empty() && !truncated) view_.note = "empty";
}

void ClipboardLink::show_note(std::string note) {
  view_ = {};
  view_.note = std::move(note);
}

void ClipboardLink::ask(xcb_atom_t target, xcb_timestamp_t time) {
  xcb_convert_selection(c_, window_, clipboard_, target, property_, time);
}

bool ClipboardLink::handle(const xcb_generic_event_t* ev) {
  const uint8_t type = ev->response_type & 0x7f;
  if (xfixes_event_ && type == xfixes_event_ + XCB_XFIXES_SELECTION_NOTIFY) {
    const auto* e = reinterpret_cast<const xcb_xfixes_selection_notify_event_t*>(ev);
    if (e->selection != clipboard_) return false;
    if (e->owner == window_) {
      // What offer() gave: no need to ask ourselves.
      bool complete = true;
      show(utf8_decode(offered_, max_chars_, &complete), offered_.size(), !complete);
    } else if (e->owner == XCB_WINDOW_NONE) {
      owned_ = false;
      show_note("empty");
    } else {
      owned_ = false;
      ask(utf8_, e->timestamp);
      return false;  // shown when the answer comes
    }
    return true;
  }
  if (type == XCB_SELECTION_NOTIFY) {
    const auto* e = reinterpret_cast<const xcb_selection_notify_event_t*>(ev);
    if (e->requestor != window_ || e->selection != clipboard_) return false;
    read_answer(e);
    return true;
  }
  if (type == XCB_SELECTION_REQUEST) {
    answer_request(reinterpret_cast<const xcb_selection_request_event_t*>(ev));
    return false;
  }
  if (type == XCB_SELECTION_CLEAR) {
    const auto* e = reinterpret_cast<const xcb_selection_clear_event_t*>(ev);
    if (e->selection == clipboard_) {
      owned_ = false;
      offered_.clear();
    }
    return false;  // the new owner's XFixes notification follows
  }
  return false;
}

void ClipboardLink::read_answer(const xcb_selection_notify_event_t* e) {
  if (e->property == XCB_ATOM_NONE) {
    // Refused: an older program may still have Latin-1 text.
    if (e->target == utf8_) ask(XCB_ATOM_STRING, e->time);
    else show_note("not text");
    return;
  }
  const uint32_t words = uint32_t((max_bytes_ + 3) / 4);
  auto* r = xcb_get_property_reply(
      c_, xcb_get_property(c_, 1, window_, e->property, XCB_GET_PROPERTY_TYPE_ANY, 0, words), nullptr);
  if (!r) {
    show_note("no answer");
    return;
  }
  // GetProperty deletes only what it read to the end.
  if (r->bytes_after > 0) xcb_delete_property(c_, window_, e->property);
  if (r->type == incr_) {
    show_note("too large to show here");
  } else {
    const int length = xcb_get_property_value_length(r);
    const std::string_view bytes(static_cast<const char*>(xcb_get_property_value(r)), size_t(length));
    bool complete = true;
    std::u32string text = r->type == XCB_ATOM_STRING ? latin1_decode(bytes, max_chars_, &complete)
                                                     : utf8_decode(bytes, max_chars_, &complete);
    show(std::move(text), bytes.size() + r->bytes_after, !complete || r->bytes_after > 0);
  }
  std::free(r);
}

bool ClipboardLink::offer(std::u32string_view text, xcb_timestamp_t time) {
  xcb_set_selection_owner(c_, window_, clipboard_, time);
  auto* r = xcb_get_selection_owner_reply(c_, xcb_get_selection_owner(c_, clipboard_), nullptr);
  owned_ = r && r->owner == window_;
  std::free(r);
  offered_ = owned_ ? utf8_encode(text) : std::string();
  return owned_;
}

void ClipboardLink::answer_request(const xcb_selection_request_event_t* req) {
  // An obsolete requestor names no property: the target is the property.
  const xcb_atom_t property = req->property == XCB_ATOM_NONE ? req->target : req->property;
  bool given = owned_ && req->selection == clipboard_;
  if (given) {
    if (req->target == targets_) {
      const xcb_atom_t list[] = {targets_, utf8_, plain_utf8_, XCB_ATOM_STRING, text_};
      xcb_change_property(c_, XCB_PROP_MODE_REPLACE, req->requestor, property, XCB_ATOM_ATOM, 32,
                          uint32_t(std::size(list)), list);
    } else if (req->target == utf8_ || req->target == plain_utf8_) {
      xcb_change_property(c_, XCB_PROP_MODE_REPLACE, req->requestor, property, req->target, 8,
                          uint32_t(offered_.size()), offered_.data());
    } else if (req->target == XCB_ATOM_STRING || req->target == text_) {
      const std::string latin1 = latin1_encode(utf8_decode(offered_, offered_.size()));
      xcb_change_property(c_, XCB_PROP_MODE_REPLACE, req->requestor, property, XCB_ATOM_STRING, 8,
                          uint32_t(latin1.size()), latin1.data());
    } else {
      given = false;  // MULTIPLE and other targets: refused
    }
  }
  // SendEvent sends 32 bytes, more than the struct holds.
  alignas(xcb_selection_notify_event_t) char buffer[32] = {};
  auto* n = reinterpret_cast<xcb_selection_notify_event_t*>(buffer);
  n->response_type = XCB_SELECTION_NOTIFY;
  n->time = req->time;
  n->requestor = req->requestor;
  n->selection = req->selection;
  n->target = req->target;
  n->property = given ? property : xcb_atom_t(XCB_ATOM_NONE);
  xcb_send_event(c_, 0, req->requestor, XCB_EVENT_MASK_NO_EVENT, buffer);
}

}  // namespace voxl::demo
