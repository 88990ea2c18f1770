#include "platform/x11/selection_clipboard.h"

#include <xcb/xcb.h>
#include <xcb/xfixes.h>

#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"
#include "platform/x11/xcb_event_watch.h"

namespace voxl::platform::x11 {

namespace {

using platform::x11::XcbPtr;

// Bytes per INCR chunk sent to a requestor.
constexpr size_t kIncrChunk = 256 * 1024;
// The key under which the transfer from the desktop's owner is timed (no
// requestor window is 0).
constexpr std::pair<uint32_t, uint32_t> kFetchKey{0, 0};

constexpr const char* kAtomNames[] = {"CLIPBOARD", "TARGETS", "UTF8_STRING", "STRING", "TEXT",
                                      "text/plain;charset=utf-8", "text/plain", "image/png", "INCR",
                                      "TIMESTAMP", "ATOM", "INTEGER", "VOXL_CLIPBOARD"};

std::string latin1_to_utf8(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (unsigned char c : in) {
    if (c < 0x80) {
      out += char(c);
    } else {
      out += char(0xc0 | (c >> 6));
      out += char(0x80 | (c & 0x3f));
    }
  }
  return out;
}

std::string megabytes(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", double(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

struct SelectionClipboard::Atoms {
  xcb_atom_t clipboard, targets, utf8, string, text, text_utf8, text_plain, png, incr, timestamp, atom, integer,
      property;
};

struct SelectionClipboard::Timer {
  explicit Timer(boost::asio::io_context& io) : timer(io) {}
  boost::asio::steady_timer timer;
  std::optional<std::chrono::steady_clock::time_point> armed;  // when it fires
  std::shared_ptr<char> alive = std::make_shared<char>();     // handlers check it
};

struct SelectionClipboard::Outgoing {
  xcb_window_t requestor;
  xcb_atom_t property;
  xcb_atom_t type;
  std::shared_ptr<const input::ClipboardContent> content;
  size_t offset = 0;
  bool done = false;  // the closing empty chunk is written
};

SelectionClipboard::SelectionClipboard(boost::asio::io_context& io, const std::string& display, Logger log,
                                       size_t max_bytes, bool read_desktop, std::chrono::milliseconds idle_limit)
    : conn_(std::make_unique<platform::x11::XcbConnection>(display)),
      log_(std::move(log)),
      max_bytes_(max_bytes),
      deadlines_(idle_limit),
      timer_(std::make_unique<Timer>(io)) {
  xcb_connection_t* c = conn_->get();
  const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c, &xcb_xfixes_id);
  if (!ext || !ext->present) throw std::runtime_error("X display lacks XFIXES: no clipboard");
  xfixes_first_event_ = ext->first_event;
  XcbPtr<xcb_xfixes_query_version_reply_t> v(
      xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 5, 0), nullptr));
  if (!v || v->major_version < 1) throw std::runtime_error("X display's XFIXES is too old: no clipboard");

  constexpr size_t n = std::size(kAtomNames);
  xcb_intern_atom_cookie_t cookies[n];
  for (size_t i = 0; i < n; ++i) cookies[i] = xcb_intern_atom(c, 0, uint16_t(std::strlen(kAtomNames[i])), kAtomNames[i]);
  xcb_atom_t got[n];
  for (size_t i = 0; i < n; ++i) {
    XcbPtr<xcb_intern_atom_reply_t> r(xcb_intern_atom_reply(c, cookies[i], nullptr));
    if (!r) throw std::runtime_error("cannot intern X atoms for the clipboard");
    got[i] = r->atom;
  }
  atoms_ = std::make_unique<Atoms>(Atoms{got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7], got[8],
                                         got[9], got[10], got[11], got[12]});

  window_ = xcb_generate_id(c);
  const uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
  xcb_create_window(c, XCB_COPY_FROM_PARENT, window_, conn_->root(), -1, -1, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY,
                    XCB_COPY_FROM_PARENT, XCB_CW_EVENT_MASK, &mask);
  if (read_desktop)
    xcb_xfixes_select_selection_input(c, window_, atoms_->clipboard,
                                      XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER);
  // Property requests carry a header; keep each chunk well inside one request.
  max_request_bytes_ = size_t(xcb_get_maximum_request_length(c)) * 4 - 1024;
  conn_->sync();
  watch_ = std::make_unique<XcbEventWatch>(
      io, c, [this](xcb_generic_event_t* ev) { on_event(ev); },
      [this] {
        log_->warn("clipboard: lost the X connection");
        if (on_lost_) on_lost_();
      });
}

SelectionClipboard::~SelectionClipboard() {
  timer_.reset();  // pending waits end with operation_aborted and see `alive` gone
  watch_.reset();
  if (!conn_->failed()) xcb_destroy_window(conn_->get(), window_);
  xcb_flush(conn_->get());
}

void SelectionClipboard::set_listener(Listener listener) { listener_ = std::move(listener); }

std::string SelectionClipboard::too_large(size_t bytes) const {
  return "the clipboard holds " + megabytes(bytes) + ", more than the " + megabytes(max_bytes_) +
         " limit; it was not copied";
}

bool SelectionClipboard::offer(input::ClipboardContent content, std::string& error) {
  if (content.data.size() > max_bytes_) {
    error = too_large(content.data.size());
    return false;
  }
  if (content.mime != input::kMimeText && content.mime != input::kMimePng) {
    error = "only text and PNG images can be pasted";
    return false;
  }
  xcb_connection_t* c = conn_->get();
  const size_t bytes = content.data.size();
  const std::string mime = content.mime;
  offered_ = std::make_shared<const input::ClipboardContent>(std::move(content));
  owned_since_ = xcb_set_selection_owner(c, window_, atoms_->clipboard, XCB_CURRENT_TIME).sequence;
  XcbPtr<xcb_get_selection_owner_reply_t> r(
      xcb_get_selection_owner_reply(c, xcb_get_selection_owner(c, atoms_->clipboard), nullptr));
  // The round trip may have queued events, among them the SelectionClear of
  // an earlier offer that an application took before this one: on_event
  // tells it by its sequence number. One that came after (another
  // application already took this offer) may empty offered_.
  watch_->drain();
  if (!r || r->owner != window_) {
    offered_.reset();
    error = "the desktop did not let voxl own its clipboard";
    return false;
  }
  log_->debug("clipboard: offering {} bytes of {} to the desktop", bytes, mime);
  return true;
}

void SelectionClipboard::on_event(const void* event) {
  const auto* ev = static_cast<const xcb_generic_event_t*>(event);
  const uint8_t type = ev->response_type & 0x7f;
  if (type == xfixes_first_event_ + XCB_XFIXES_SELECTION_NOTIFY) {
    const auto* n = static_cast<const xcb_xfixes_selection_notify_event_t*>(event);
    if (n->selection == atoms_->clipboard) on_owner_change(n->owner, n->selection_timestamp);
    return;
  }
  switch (type) {
    case XCB_SELECTION_NOTIFY: on_selection_notify(event); break;
    case XCB_PROPERTY_NOTIFY: on_property_notify(event); break;
    case XCB_SELECTION_REQUEST: on_selection_request(event); break;
    case XCB_SELECTION_CLEAR: {
      // Only a clear generated after voxl's latest SetSelectionOwner ends that
      // offer; an older one (still queued when the viewer offered again) is
      // about content already replaced. Sequence numbers wrap: compare the
      // difference. INCR transfers keep their copy either way.
      const auto* e = static_cast<const xcb_selection_clear_event_t*>(event);
      const bool current = int32_t(ev->full_sequence - owned_since_) >= 0;
      if (e->selection == atoms_->clipboard && current) offered_.reset();
      break;
    }
    default: break;
  }
}

// ---------------------------------------------------------------------------
// Deadlines

void SelectionClipboard::progressed(const TransferKey& key) {
  deadlines_.progress(key, std::chrono::steady_clock::now());
  arm_timer();
}

// One timer, at the earliest deadline. Progress only pushes deadlines back,
// so a timer armed earlier stays: when it fires it re-arms for the next.
void SelectionClipboard::arm_timer() {
  const auto next = deadlines_.next_expiry();
  if (!next || (timer_->armed && *timer_->armed <= *next)) return;
  timer_->armed = *next;
  timer_->timer.expires_at(*next);
  timer_->timer.async_wait([this, alive = std::weak_ptr<char>(timer_->alive), at = *next](
                               const boost::system::error_code& ec) {
    if (ec || alive.expired() || timer_->armed != at) return;  // replaced by an earlier one, or gone
    timer_->armed.reset();
    try {
      on_timer();
    } catch (const std::exception& e) {
      log_->error("clipboard: {}", e.what());
    }
  });
}

void SelectionClipboard::on_timer() {
  const double idle = std::chrono::duration<double>(deadlines_.idle_limit()).count();
  for (const TransferKey& key : deadlines_.take_expired(std::chrono::steady_clock::now())) {
    if (key == kFetchKey) {
      if (fetch_ == Fetch::kIdle) continue;
      const bool pieces = fetch_ == Fetch::kIncr;
      log_->info("clipboard: the application that copied stopped answering ({:g} s without progress); dropped {}",
                 idle, pieces ? "the pieces received" : "the request");
      if (pieces)
        fail_fetch("the application that copied stopped sending its content; it was not copied");
      else
        finish_idle();
      continue;
    }
    log_->info("clipboard: an application stopped reading what it pasted ({:g} s without progress); dropped the "
               "transfer to window 0x{:x}",
               idle, key.first);
    drop_outgoing(key.first, key.second);
  }
  arm_timer();
}

void SelectionClipboard::drop_outgoing(uint32_t requestor, uint32_t property) {
  if (outgoing_.erase({requestor, property}) == 0) return;
  deadlines_.erase({requestor, property});
  // Stop listening to the requestor's properties unless another transfer
  // to it is still running.
  const bool other = std::any_of(outgoing_.begin(), outgoing_.end(),
                                 [&](const auto& t) { return t.first.first == requestor; });
  if (other) return;
  const uint32_t none = 0;
  xcb_change_window_attributes(conn_->get(), requestor, XCB_CW_EVENT_MASK, &none);
  xcb_flush(conn_->get());
}

// ---------------------------------------------------------------------------
// Desktop -> viewers

void SelectionClipboard::on_owner_change(uint32_t owner, uint32_t timestamp) {
  if (owner == window_ || owner == XCB_NONE) return;
  // A new owner replaces whatever transfer was under way.
  fetch_ = Fetch::kTargets;
  fetch_data_.clear();
  request(atoms_->targets, timestamp);
}

void SelectionClipboard::request(uint32_t target, uint32_t timestamp) {
  fetch_target_ = target;
  progressed(kFetchKey);
  xcb_convert_selection(conn_->get(), window_, atoms_->clipboard, target, atoms_->property, timestamp);
  xcb_flush(conn_->get());
}

void SelectionClipboard::on_selection_notify(const void* event) {
  const auto* e = static_cast<const xcb_selection_notify_event_t*>(event);
  if (e->requestor != window_ || e->selection != atoms_->clipboard || fetch_ == Fetch::kIdle) return;
  if (e->target != fetch_target_) return;  // the answer to a request since replaced
  xcb_connection_t* c = conn_->get();
  if (e->property == XCB_NONE) {
    // No TARGETS: old clients still convert to plain text.
    if (fetch_ == Fetch::kTargets) {
      fetch_ = Fetch::kData;
      fetch_mime_ = std::string(input::kMimeText);
      fetch_latin1_ = false;
      request(atoms_->utf8, e->time);
      return;
    }
    return fail_fetch("the application that copied did not hand over the content");
  }
  const uint32_t words = uint32_t(std::min<size_t>(max_bytes_ / 4 + 1, UINT32_MAX));
  XcbPtr<xcb_get_property_reply_t> r(xcb_get_property_reply(
      c, xcb_get_property(c, 1, window_, atoms_->property, XCB_GET_PROPERTY_TYPE_ANY, 0, words), nullptr));
  if (!r) return fail_fetch("the clipboard's content could not be read");
  const auto* bytes = static_cast<const char*>(xcb_get_property_value(r.get()));
  const size_t len = size_t(xcb_get_property_value_length(r.get()));  // in bytes

  if (fetch_ == Fetch::kTargets) {
    std::vector<xcb_atom_t> atoms(r->format == 32 ? len / 4 : 0);
    std::memcpy(atoms.data(), bytes, atoms.size() * 4);
    const auto has = [&](xcb_atom_t a) { return std::find(atoms.begin(), atoms.end(), a) != atoms.end(); };
    fetch_ = Fetch::kData;
    fetch_latin1_ = false;
    if (has(atoms_->png)) {
      fetch_mime_ = std::string(input::kMimePng);
      return request(atoms_->png, e->time);
    }
    fetch_mime_ = std::string(input::kMimeText);
    if (has(atoms_->utf8)) return request(atoms_->utf8, e->time);
    if (has(atoms_->text_utf8)) return request(atoms_->text_utf8, e->time);
    if (has(atoms_->string)) {
      fetch_latin1_ = true;
      return request(atoms_->string, e->time);
    }
    finish_idle();
    log_->debug("clipboard: the desktop copied something that is neither text nor PNG");
    return;
  }

  if (r->type == atoms_->incr) {
    // The owner sends the content in pieces, each once the last is deleted
    // (the read above deleted the INCR announcement).
    uint32_t announced = 0;
    if (len >= 4) std::memcpy(&announced, bytes, 4);
    if (announced > max_bytes_) return fail_fetch(too_large(announced));
    fetch_ = Fetch::kIncr;
    fetch_data_.clear();  // grows piece by piece, each checked against the limit first
    progressed(kFetchKey);
    log_->debug("clipboard: the desktop sends {} bytes in pieces (INCR)", announced);
    return;
  }
  if (r->bytes_after > 0) return fail_fetch(too_large(len + r->bytes_after));
  fetch_data_.assign(bytes, len);
  finish_fetch();
}

void SelectionClipboard::on_property_notify(const void* event) {
  const auto* e = static_cast<const xcb_property_notify_event_t*>(event);
  if (e->window == window_) {
    if (fetch_ != Fetch::kIncr || e->atom != atoms_->property || e->state != XCB_PROPERTY_NEW_VALUE) return;
    xcb_connection_t* c = conn_->get();
    const uint32_t words = uint32_t(std::min<size_t>((max_bytes_ - fetch_data_.size()) / 4 + 1, UINT32_MAX));
    XcbPtr<xcb_get_property_reply_t> r(xcb_get_property_reply(
        c, xcb_get_property(c, 1, window_, atoms_->property, XCB_GET_PROPERTY_TYPE_ANY, 0, words), nullptr));
    if (!r) return fail_fetch("the clipboard's content could not be read");
    const size_t len = size_t(xcb_get_property_value_length(r.get()));
    if (len == 0) return finish_fetch();  // the empty piece ends it
    if (fetch_data_.size() + len + r->bytes_after > max_bytes_)
      return fail_fetch(too_large(fetch_data_.size() + len + r->bytes_after) + " (it is larger still)");
    fetch_data_.append(static_cast<const char*>(xcb_get_property_value(r.get())), len);
    progressed(kFetchKey);
    return;
  }
  // A requestor deleted the last piece it was sent: send the next.
  if (e->state != XCB_PROPERTY_DELETE) return;
  const auto it = outgoing_.find({e->window, e->atom});
  if (it == outgoing_.end()) return;
  if (it->second->done) return drop_outgoing(e->window, e->atom);
  send_chunk(*it->second);
  progressed(it->first);
}

void SelectionClipboard::finish_idle() {
  fetch_ = Fetch::kIdle;
  fetch_data_.clear();
  fetch_data_.shrink_to_fit();
  deadlines_.erase(kFetchKey);
}

void SelectionClipboard::finish_fetch() {
  fetch_ = Fetch::kIdle;
  deadlines_.erase(kFetchKey);
  input::ClipboardContent content{fetch_mime_, std::move(fetch_data_)};
  fetch_data_.clear();
  if (fetch_latin1_) content.data = latin1_to_utf8(content.data);
  if (content.data.empty()) return;
  log_->debug("clipboard: the desktop copied {} bytes of {}", content.data.size(), content.mime);
  if (listener_.copied) listener_.copied(content);
}

void SelectionClipboard::fail_fetch(const std::string& why) {
  finish_idle();
  if (listener_.refused) listener_.refused(why);
}

// ---------------------------------------------------------------------------
// Viewers -> desktop

void SelectionClipboard::on_selection_request(const void* event) {
  const auto* e = static_cast<const xcb_selection_request_event_t*>(event);
  xcb_selection_notify_event_t reply{};
  reply.response_type = XCB_SELECTION_NOTIFY;
  reply.time = e->time;
  reply.requestor = e->requestor;
  reply.selection = e->selection;
  reply.target = e->target;
  reply.property = answer(event) ? (e->property != XCB_NONE ? e->property : e->target) : XCB_NONE;
  xcb_send_event(conn_->get(), 0, e->requestor, XCB_EVENT_MASK_NO_EVENT, reinterpret_cast<const char*>(&reply));
  xcb_flush(conn_->get());
}

// Writes what the requestor asked for into its property; false to refuse.
bool SelectionClipboard::answer(const void* event) {
  const auto* e = static_cast<const xcb_selection_request_event_t*>(event);
  if (e->selection != atoms_->clipboard || !offered_) return false;
  xcb_connection_t* c = conn_->get();
  // Clients from before ICCCM 2 leave the property out and mean the target.
  const xcb_atom_t property = e->property != XCB_NONE ? e->property : e->target;
  const bool text = offered_->mime == input::kMimeText;
  if (e->target == atoms_->targets) {
    std::vector<xcb_atom_t> list{atoms_->targets, atoms_->timestamp};
    if (text)
      list.insert(list.end(), {atoms_->utf8, atoms_->text_utf8, atoms_->text_plain, atoms_->string, atoms_->text});
    else
      list.push_back(atoms_->png);
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, e->requestor, property, atoms_->atom, 32, uint32_t(list.size()),
                        list.data());
    return true;
  }
  if (e->target == atoms_->timestamp) {
    const uint32_t t = XCB_CURRENT_TIME;
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, e->requestor, property, atoms_->integer, 32, 1, &t);
    return true;
  }
  xcb_atom_t type;
  if (text && (e->target == atoms_->utf8 || e->target == atoms_->text_utf8 || e->target == atoms_->text_plain ||
               e->target == atoms_->text || e->target == atoms_->string))
    type = e->target == atoms_->string ? atoms_->string : (e->target == atoms_->text ? atoms_->utf8 : e->target);
  else if (!text && e->target == atoms_->png)
    type = atoms_->png;
  else
    return false;

  if (offered_->data.size() <= max_request_bytes_) {
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, e->requestor, property, type, 8, uint32_t(offered_->data.size()),
                        offered_->data.data());
    return true;
  }
  // Too large for one request: announce INCR and send pieces as the
  // requestor deletes each one.
  if (outgoing_.size() >= kMaxOutgoing) return false;
  auto t = std::make_unique<Outgoing>(Outgoing{e->requestor, property, type, offered_});
  const uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
  xcb_change_window_attributes(c, e->requestor, XCB_CW_EVENT_MASK, &mask);
  const uint32_t size = uint32_t(offered_->data.size());
  xcb_change_property(c, XCB_PROP_MODE_REPLACE, e->requestor, property, atoms_->incr, 32, 1, &size);
  outgoing_[{e->requestor, property}] = std::move(t);
  progressed({e->requestor, property});
  return true;
}

void SelectionClipboard::send_chunk(Outgoing& t) {
  const std::string& data = t.content->data;
  const size_t n = std::min({kIncrChunk, max_request_bytes_, data.size() - t.offset});
  xcb_change_property(conn_->get(), XCB_PROP_MODE_REPLACE, t.requestor, t.property, t.type, 8, uint32_t(n),
                      data.data() + t.offset);
  t.offset += n;
  if (n == 0) t.done = true;
  xcb_flush(conn_->get());
}

}  // namespace voxl::platform::x11
