#include "shape_watcher.h"

#include <poll.h>

#include <cstdlib>
#include <cstring>

namespace voxl::testing {

ShapeWatcher::ShapeWatcher(const std::string& display) : c_(xcb_connect(display.c_str(), nullptr)) {
  root_ = xcb_setup_roots_iterator(xcb_get_setup(c_)).data->root;
}

ShapeWatcher::~ShapeWatcher() { xcb_disconnect(c_); }

void ShapeWatcher::watch(xcb_window_t w) {
  xcb_shape_select_input(c_, w, 1);
  sync();
}

void ShapeWatcher::sync() { std::free(xcb_get_input_focus_reply(c_, xcb_get_input_focus(c_), nullptr)); }

bool ShapeWatcher::wait_for(xcb_window_t w, const std::function<bool(const xcb_shape_notify_event_t&)>& done,
                            std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  const uint8_t shape_notify = xcb_get_extension_data(c_, &xcb_shape_id)->first_event + XCB_SHAPE_NOTIFY;
  for (;;) {
    while (xcb_generic_event_t* e = xcb_poll_for_event(c_)) {
      bool hit = false;
      if ((e->response_type & 0x7f) == shape_notify) {
        const auto* ev = reinterpret_cast<xcb_shape_notify_event_t*>(e);
        hit = ev->affected_window == w && ev->shape_kind == XCB_SHAPE_SK_BOUNDING && done(*ev);
      }
      std::free(e);
      if (hit) return true;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{xcb_get_file_descriptor(c_), POLLIN, 0};
    ::poll(&p, 1, int(left.count()));
  }
}

bool ShapeWatcher::becomes_shaped(xcb_window_t w) {
  return shaped(w) || wait_for(w, [](const xcb_shape_notify_event_t& e) { return e.shaped != 0; });
}

std::vector<Rect> ShapeWatcher::bounding(xcb_window_t w) {
  std::vector<Rect> out;
  xcb_shape_get_rectangles_reply_t* r =
      xcb_shape_get_rectangles_reply(c_, xcb_shape_get_rectangles(c_, w, XCB_SHAPE_SK_BOUNDING), nullptr);
  if (!r) return out;
  const xcb_rectangle_t* rs = xcb_shape_get_rectangles_rectangles(r);
  for (int i = 0; i < xcb_shape_get_rectangles_rectangles_length(r); ++i)
    out.push_back({rs[i].x, rs[i].y, rs[i].width, rs[i].height});
  std::free(r);
  return out;
}

bool ShapeWatcher::shaped(xcb_window_t w) {
  xcb_shape_query_extents_reply_t* r = xcb_shape_query_extents_reply(c_, xcb_shape_query_extents(c_, w), nullptr);
  const bool s = r && r->bounding_shaped;
  std::free(r);
  return s;
}

uint32_t ShapeWatcher::pixel(int x, int y) {
  xcb_get_image_reply_t* r = xcb_get_image_reply(
      c_, xcb_get_image(c_, XCB_IMAGE_FORMAT_Z_PIXMAP, root_, int16_t(x), int16_t(y), 1, 1, ~0u), nullptr);
  uint32_t v = 0;
  if (r && xcb_get_image_data_length(r) >= 4) std::memcpy(&v, xcb_get_image_data(r), 4);
  std::free(r);
  return v & 0xffffffu;
}

void ShapeWatcher::set_title(xcb_window_t w, const std::string& title) {
  const char* name = "_NET_WM_NAME";
  const char* utf8 = "UTF8_STRING";
  auto* a = xcb_intern_atom_reply(c_, xcb_intern_atom(c_, 0, uint16_t(std::strlen(name)), name), nullptr);
  auto* u = xcb_intern_atom_reply(c_, xcb_intern_atom(c_, 0, uint16_t(std::strlen(utf8)), utf8), nullptr);
  if (a && u)
    xcb_change_property(c_, XCB_PROP_MODE_REPLACE, w, a->atom, u->atom, 8, uint32_t(title.size()), title.data());
  std::free(a);
  std::free(u);
  sync();
}

void ShapeWatcher::root_background(uint32_t rgb) {
  xcb_change_window_attributes(c_, root_, XCB_CW_BACK_PIXEL, &rgb);
  xcb_clear_area(c_, 0, root_, 0, 0, 0, 0);
  sync();
}

}  // namespace voxl::testing
