#include "platform/x11/x11_window_rounder.h"

#include <spdlog/fmt/fmt.h>
#include <xcb/shape.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "platform/x11/rounded_shape.h"
#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_event_watch.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

namespace {

constexpr uint32_t kTitleWords = 256;  // titles longer than 1 KiB are cut there (no rule names one)

std::vector<xcb_rectangle_t> to_xcb(const std::vector<Rect>& rects, int offset) {
  std::vector<xcb_rectangle_t> out;
  out.reserve(rects.size());
  for (const Rect& r : rects)
    out.push_back({int16_t(r.x + offset), int16_t(r.y + offset), uint16_t(r.width), uint16_t(r.height)});
  return out;
}

}  // namespace

std::unique_ptr<X11WindowRounder> X11WindowRounder::open(boost::asio::io_context& io, const std::string& display,
                                                         WindowRoundingOptions options, Logger log,
                                                         std::string& why) {
  try {
    auto conn = std::make_unique<XcbConnection>(display);
    const xcb_query_extension_reply_t* shape = xcb_get_extension_data(conn->get(), &xcb_shape_id);
    if (!shape || !shape->present) {
      why = "the X server has no SHAPE extension";
      return nullptr;
    }
    std::unique_ptr<X11WindowRounder> r(new X11WindowRounder(io, std::move(conn), std::move(options), std::move(log)));
    r->start();
    return r;
  } catch (const std::exception& e) {
    why = e.what();
    return nullptr;
  }
}

X11WindowRounder::X11WindowRounder(boost::asio::io_context& io, std::unique_ptr<XcbConnection> conn,
                                   WindowRoundingOptions options, Logger log)
    : conn_(std::move(conn)), io_(io), options_(std::move(options)), log_(std::move(log)) {}

X11WindowRounder::~X11WindowRounder() {
  watch_.reset();
  if (conn_->failed()) return;
  size_t squared = 0;
  for (auto& [w, t] : tops_) {
    if (!t.applied) continue;
    square(w);
    ++squared;
  }
  conn_->sync();  // the shapes are gone before the connection closes
  if (squared) log_->info("window corners: {} window{} square again", squared, squared == 1 ? "" : "s");
}

xcb_atom_t X11WindowRounder::atom(const char* name) {
  xcb_connection_t* c = conn_->get();
  XcbPtr<xcb_intern_atom_reply_t> r(
      xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, uint16_t(std::strlen(name)), name), nullptr));
  return r ? r->atom : XCB_NONE;
}

void X11WindowRounder::start() {
  xcb_connection_t* c = conn_->get();
  shape_notify_ = uint8_t(xcb_get_extension_data(c, &xcb_shape_id)->first_event + XCB_SHAPE_NOTIFY);
  net_wm_name_ = atom("_NET_WM_NAME");
  utf8_string_ = atom("UTF8_STRING");
  const uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
  const std::string err = check_request(c, xcb_change_window_attributes_checked(c, conn_->root(), XCB_CW_EVENT_MASK, &mask));
  if (!err.empty()) throw std::runtime_error("cannot follow the root window's children: " + err);
  XcbPtr<xcb_query_tree_reply_t> tree(xcb_query_tree_reply(c, xcb_query_tree(c, conn_->root()), nullptr));
  if (tree) {
    const xcb_window_t* kids = xcb_query_tree_children(tree.get());
    for (int i = 0, n = xcb_query_tree_children_length(tree.get()); i < n; ++i) track(kids[i]);
  }
  xcb_flush(c);
  log_->info("window corners: radius {}{}; {} window{} rounded now", options_.radius,
             options_.by_title.empty() ? "" : fmt::format(" ({} by title)", options_.by_title.size()), rounded(),
             rounded() == 1 ? "" : "s");
  watch_ = std::make_unique<XcbEventWatch>(
      io_, c, [this](xcb_generic_event_t* e) { on_event(e); },
      [this] { log_->warn("window corners: the X connection was lost; windows stay as they are"); });
}

size_t X11WindowRounder::rounded() const {
  return size_t(std::count_if(tops_.begin(), tops_.end(), [](const auto& kv) { return kv.second.applied && *kv.second.applied > 0; }));
}

void X11WindowRounder::track(xcb_window_t w) {
  xcb_connection_t* c = conn_->get();
  const auto attr_cookie = xcb_get_window_attributes(c, w);
  const auto geo_cookie = xcb_get_geometry(c, w);
  XcbPtr<xcb_get_window_attributes_reply_t> attr(xcb_get_window_attributes_reply(c, attr_cookie, nullptr));
  XcbPtr<xcb_get_geometry_reply_t> geo(xcb_get_geometry_reply(c, geo_cookie, nullptr));
  if (!attr || !geo) return;  // gone already
  if (attr->_class == XCB_WINDOW_CLASS_INPUT_ONLY) return;  // nothing to see
  Top& t = tops_[w];
  t.geometry = {geo->x, geo->y, geo->width, geo->height};
  t.border = geo->border_width;
  t.mapped = attr->map_state != XCB_MAP_STATE_UNMAPPED;
  if (!t.applied) t.own_shape = has_own_shape(w, t);
  // A new title, a client put into this window (a frame) and a shape set
  // by someone else are events.
  const uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
  xcb_change_window_attributes(c, w, XCB_CW_EVENT_MASK, &mask);
  xcb_shape_select_input(c, w, 1);
  refresh(w, t);
}

void X11WindowRounder::untrack(xcb_window_t w) { tops_.erase(w); }

void X11WindowRounder::refresh(xcb_window_t w, Top& t) {
  find_client(w, t);
  if (t.mapped) apply(w, t);
}

std::vector<Rect> X11WindowRounder::bounding_rects(xcb_window_t w) {
  xcb_connection_t* c = conn_->get();
  std::vector<Rect> out;
  XcbPtr<xcb_shape_get_rectangles_reply_t> r(
      xcb_shape_get_rectangles_reply(c, xcb_shape_get_rectangles(c, w, XCB_SHAPE_SK_BOUNDING), nullptr));
  if (!r) return out;
  const xcb_rectangle_t* rs = xcb_shape_get_rectangles_rectangles(r.get());
  for (int i = 0, n = xcb_shape_get_rectangles_rectangles_length(r.get()); i < n; ++i)
    out.push_back({rs[i].x, rs[i].y, rs[i].width, rs[i].height});
  return out;
}

bool X11WindowRounder::has_own_shape(xcb_window_t w, const Top& t) {
  xcb_connection_t* c = conn_->get();
  XcbPtr<xcb_shape_query_extents_reply_t> e(xcb_shape_query_extents_reply(c, xcb_shape_query_extents(c, w), nullptr));
  if (!e || !e->bounding_shaped) return false;
  // The server gives a region's rectangles without overlaps: they cover
  // the whole window exactly when their areas within it add up to its area.
  const Rect whole{-t.border, -t.border, t.geometry.width + 2 * t.border, t.geometry.height + 2 * t.border};
  int64_t covered = 0;
  for (const Rect& r : bounding_rects(w)) {
    const Rect in = r.intersect(whole);
    if (in.width > 0 && in.height > 0) covered += int64_t(in.width) * in.height;
  }
  return covered != int64_t(whole.width) * whole.height;
}

// Someone set the window's shape: us (nothing to do), its program (leave it
// alone from now on), or a window manager putting the whole window back
// (cut ours again).
void X11WindowRounder::on_shape_notify(xcb_window_t w) {
  const auto it = tops_.find(w);
  if (it == tops_.end()) return;
  Top& t = it->second;
  if (t.applied) {
    if (bounding_rects(w) == t.applied_rects) return;  // ours
    t.applied.reset();
  }
  // Judged again each time: a window manager may shape a frame in steps
  // (part of it while it builds it, then the whole).
  t.own_shape = has_own_shape(w, t);
  if (t.own_shape) {
    log_->debug("window corners: 0x{:x} has a shape of its own now; left alone", w);
    return;
  }
  if (t.mapped) apply(w, t);
}

void X11WindowRounder::find_client(xcb_window_t top, Top& t) {
  t.client = top;
  if (!title_of(top).empty()) return;
  // A frame: its client is the child with a title.
  xcb_connection_t* c = conn_->get();
  XcbPtr<xcb_query_tree_reply_t> tree(xcb_query_tree_reply(c, xcb_query_tree(c, top), nullptr));
  if (!tree) return;
  const xcb_window_t* kids = xcb_query_tree_children(tree.get());
  for (int i = 0, n = xcb_query_tree_children_length(tree.get()); i < n; ++i) {
    if (title_of(kids[i]).empty()) continue;
    t.client = kids[i];
    const uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_change_window_attributes(c, kids[i], XCB_CW_EVENT_MASK, &mask);
    return;
  }
}

std::string X11WindowRounder::title_of(xcb_window_t w) {
  xcb_connection_t* c = conn_->get();
  for (const auto& [property, type] : {std::pair{net_wm_name_, utf8_string_}, std::pair{xcb_atom_t(XCB_ATOM_WM_NAME),
                                                                                      xcb_atom_t(XCB_GET_PROPERTY_TYPE_ANY)}}) {
    if (property == XCB_NONE) continue;
    XcbPtr<xcb_get_property_reply_t> p(
        xcb_get_property_reply(c, xcb_get_property(c, 0, w, property, type, 0, kTitleWords), nullptr));
    if (!p || p->format != 8) continue;
    const int n = xcb_get_property_value_length(p.get());
    if (n > 0) return std::string(static_cast<const char*>(xcb_get_property_value(p.get())), size_t(n));
  }
  return {};
}

int X11WindowRounder::radius_for(const Top& t) {
  if (!options_.by_title.empty()) {
    const std::string title = title_of(t.client);
    for (const auto& rule : options_.by_title)
      if (rule.title == title) return rule.radius;
  }
  return options_.radius;
}

void X11WindowRounder::apply(xcb_window_t w, Top& t) {
  if (t.own_shape) return;
  const int radius = radius_for(t);
  const Size size{t.geometry.width + 2 * t.border, t.geometry.height + 2 * t.border};
  if (radius <= 0) {
    if (t.applied) square(w);
    t.applied.reset();
    return;
  }
  if (t.applied == radius && t.applied_for == size) return;
  xcb_connection_t* c = conn_->get();
  // Shape coordinates start inside the border: the border is cut too.
  const auto rects = to_xcb(rounded_rectangles(size, radius), -t.border);
  for (const xcb_shape_kind_t kind : {XCB_SHAPE_SK_BOUNDING, XCB_SHAPE_SK_CLIP})
    xcb_shape_rectangles(c, XCB_SHAPE_SO_SET, kind, XCB_CLIP_ORDERING_YX_BANDED, w, 0, 0, uint32_t(rects.size()),
                         rects.data());
  if (!t.applied) log_->debug("window corners: 0x{:x} ({}x{}) rounded to {} px", w, size.width, size.height, radius);
  t.applied = radius;
  t.applied_for = size;
  // As the server keeps them: a ShapeNotify showing these is our own.
  t.applied_rects = bounding_rects(w);
}

void X11WindowRounder::square(xcb_window_t w) {
  xcb_connection_t* c = conn_->get();
  for (const xcb_shape_kind_t kind : {XCB_SHAPE_SK_BOUNDING, XCB_SHAPE_SK_CLIP})
    xcb_shape_mask(c, XCB_SHAPE_SO_SET, kind, w, 0, 0, XCB_NONE);
}

void X11WindowRounder::on_event(xcb_generic_event_t* e) {
  const xcb_window_t root = conn_->root();
  const uint8_t type = e->response_type & 0x7f;
  if (type == shape_notify_) {
    const auto* ev = reinterpret_cast<xcb_shape_notify_event_t*>(e);
    if (ev->shape_kind == XCB_SHAPE_SK_BOUNDING) on_shape_notify(ev->affected_window);
    xcb_flush(conn_->get());
    return;
  }
  switch (type) {
    case 0:  // an error: a window went away between an event and a request
      return;
    case XCB_CREATE_NOTIFY: {
      const auto* ev = reinterpret_cast<xcb_create_notify_event_t*>(e);
      if (ev->parent == root) track(ev->window);
      break;
    }
    case XCB_MAP_NOTIFY: {
      const auto* ev = reinterpret_cast<xcb_map_notify_event_t*>(e);
      if (auto it = tops_.find(ev->window); it != tops_.end() && ev->event == root) {
        // Its own shape may have come while it was unmapped.
        if (!it->second.applied) it->second.own_shape = has_own_shape(ev->window, it->second);
        it->second.mapped = true;
        refresh(ev->window, it->second);
      } else if (auto top = tops_.find(ev->event); top != tops_.end() && top->second.client == ev->event) {
        // A window shown inside a top-level one that has no titled client
        // yet: a frame's client, maybe. (Once it has one, its other
        // children's maps cost nothing.)
        refresh(ev->event, top->second);
      }
      break;
    }
    case XCB_UNMAP_NOTIFY: {
      const auto* ev = reinterpret_cast<xcb_unmap_notify_event_t*>(e);
      if (auto it = tops_.find(ev->window); it != tops_.end() && ev->event == root) it->second.mapped = false;
      break;
    }
    case XCB_CONFIGURE_NOTIFY: {
      const auto* ev = reinterpret_cast<xcb_configure_notify_event_t*>(e);
      if (ev->event != root) break;
      if (auto it = tops_.find(ev->window); it != tops_.end()) {
        it->second.geometry = {ev->x, ev->y, ev->width, ev->height};
        it->second.border = ev->border_width;
        if (it->second.mapped) apply(ev->window, it->second);
      }
      break;
    }
    case XCB_DESTROY_NOTIFY: {
      const auto* ev = reinterpret_cast<xcb_destroy_notify_event_t*>(e);
      if (ev->event == root) untrack(ev->window);
      break;
    }
    case XCB_REPARENT_NOTIFY: {
      const auto* ev = reinterpret_cast<xcb_reparent_notify_event_t*>(e);
      if (ev->event == root) {
        if (ev->parent == root) {
          track(ev->window);
        } else if (auto it = tops_.find(ev->window); it != tops_.end()) {
          // Put into a frame: the frame is the top now, and the client is
          // square again inside it.
          if (it->second.applied) square(ev->window);
          tops_.erase(it);
        }
      } else if (auto top = tops_.find(ev->event); top != tops_.end()) {
        refresh(ev->event, top->second);
      }
      break;
    }
    case XCB_PROPERTY_NOTIFY: {
      const auto* ev = reinterpret_cast<xcb_property_notify_event_t*>(e);
      if (ev->atom != XCB_ATOM_WM_NAME && ev->atom != net_wm_name_) break;
      for (auto& [w, t] : tops_) {
        if (w != ev->window && t.client != ev->window) continue;
        if (w == ev->window && t.client != w) find_client(w, t);
        if (t.mapped) apply(w, t);
        break;
      }
      break;
    }
    default:
      break;
  }
  xcb_flush(conn_->get());
}

}  // namespace voxl::platform::x11
