#include "platform/x11/xfixes_cursor_source.h"

#include <xcb/xcb.h>
#include <xcb/xfixes.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"
#include "platform/x11/xcb_event_watch.h"

namespace voxl::platform::x11 {

namespace {

using platform::x11::XcbPtr;

constexpr size_t kCacheSize = 64;

// XFixes hands out premultiplied ARGB words; browsers want straight RGBA bytes.
// The cursor's name as the application set it ("left_ptr", "xterm"; empty
// when it set none): printable ASCII only, at most kMaxNameBytes.
constexpr size_t kMaxNameBytes = 64;

std::string cursor_name(xcb_xfixes_get_cursor_image_and_name_reply_t& r) {
  const char* name = xcb_xfixes_get_cursor_image_and_name_name(&r);
  const int n = xcb_xfixes_get_cursor_image_and_name_name_length(&r);
  std::string out;
  for (int i = 0; i < n && out.size() < kMaxNameBytes; ++i)
    if (name[i] > 0x20 && name[i] < 0x7f) out += name[i];
  return out;
}

input::CursorImagePtr convert(xcb_xfixes_get_cursor_image_and_name_reply_t& r) {
  auto img = std::make_shared<input::CursorImage>();
  img->serial = r.cursor_serial;
  img->width = r.width;
  img->height = r.height;
  img->hot_x = r.xhot;
  img->hot_y = r.yhot;
  img->name = cursor_name(r);
  const uint32_t* px = xcb_xfixes_get_cursor_image_and_name_cursor_image(&r);
  const int n = xcb_xfixes_get_cursor_image_and_name_cursor_image_length(&r);
  img->rgba.resize(size_t(n) * 4);
  for (int i = 0; i < n; ++i) {
    const uint32_t p = px[i];
    const uint32_t a = p >> 24;
    const auto straight = [a](uint32_t c) { return uint8_t(a ? std::min<uint32_t>(255, (c * 255 + a / 2) / a) : 0); };
    img->rgba[size_t(i) * 4 + 0] = straight((p >> 16) & 0xff);
    img->rgba[size_t(i) * 4 + 1] = straight((p >> 8) & 0xff);
    img->rgba[size_t(i) * 4 + 2] = straight(p & 0xff);
    img->rgba[size_t(i) * 4 + 3] = uint8_t(a);
  }
  return img;
}

}  // namespace

XFixesCursorSource::XFixesCursorSource(boost::asio::io_context& io, const std::string& display, Logger log)
    : conn_(std::make_unique<platform::x11::XcbConnection>(display)), log_(std::move(log)) {
  xcb_connection_t* c = conn_->get();
  const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c, &xcb_xfixes_id);
  if (!ext || !ext->present) throw std::runtime_error("X display lacks XFIXES: no cursor shapes");
  first_event_ = ext->first_event;
  // The version must be asked before any other XFixes request.
  XcbPtr<xcb_xfixes_query_version_reply_t> v(
      xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 5, 0), nullptr));
  if (!v || v->major_version < 2) throw std::runtime_error("X display's XFIXES is older than 2: no cursor shapes");
  xcb_xfixes_select_cursor_input(c, conn_->root(), XCB_XFIXES_CURSOR_NOTIFY_MASK_DISPLAY_CURSOR);
  // Viewers draw the pointer; a server with a software cursor (Xvfb) would
  // otherwise paint it into the framebuffer that capture reads. XFixes
  // still reports the shape it would show, and the server shows it again
  // when this connection closes.
  if (v->major_version >= 4) xcb_xfixes_hide_cursor(c, conn_->root());
  refresh();
  watch_ = std::make_unique<XcbEventWatch>(
      io, c, [this](xcb_generic_event_t* ev) { on_event(ev); },
      [this] {
        log_->warn("cursor: lost the X connection");
        if (on_lost_) on_lost_();
      });
}

XFixesCursorSource::~XFixesCursorSource() { watch_.reset(); }

void XFixesCursorSource::set_listener(std::function<void(const input::CursorImagePtr&)> listener) {
  listener_ = std::move(listener);
}

void XFixesCursorSource::on_event(const void* event) {
  const auto* ev = static_cast<const xcb_generic_event_t*>(event);
  if ((ev->response_type & 0x7f) != first_event_ + XCB_XFIXES_CURSOR_NOTIFY) return;
  const auto* n = reinterpret_cast<const xcb_xfixes_cursor_notify_event_t*>(ev);
  if (current_ && current_->serial == n->cursor_serial) return;
  if (auto it = cache_.find(n->cursor_serial); it != cache_.end()) {
    current_ = it->second;
    if (listener_) listener_(current_);
    return;
  }
  refresh();
}

// Reads the shape now on screen (which may already be newer than the
// notification that asked).
void XFixesCursorSource::refresh() {
  xcb_connection_t* c = conn_->get();
  XcbPtr<xcb_xfixes_get_cursor_image_and_name_reply_t> r(
      xcb_xfixes_get_cursor_image_and_name_reply(c, xcb_xfixes_get_cursor_image_and_name(c), nullptr));
  if (!r) return;
  auto img = convert(*r);
  if (cache_.size() >= kCacheSize) cache_.erase(cache_.begin());
  cache_[img->serial] = img;
  if (current_ && current_->serial == img->serial) return;
  current_ = std::move(img);
  log_->debug("cursor: shape {} ({}x{}, hotspot {},{})", current_->serial, current_->width, current_->height,
              current_->hot_x, current_->hot_y);
  if (listener_) listener_(current_);
}

}  // namespace voxl::platform::x11
