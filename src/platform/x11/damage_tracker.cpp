#include "platform/x11/damage_tracker.h"

#include <stdexcept>

#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

DamageTracker::DamageTracker(xcb_connection_t* c, xcb_drawable_t drawable) : c_(c) {
  const xcb_query_extension_reply_t* damage = xcb_get_extension_data(c, &xcb_damage_id);
  const xcb_query_extension_reply_t* fixes = xcb_get_extension_data(c, &xcb_xfixes_id);
  if (!damage || !damage->present) throw std::runtime_error("the X server has no DAMAGE extension");
  if (!fixes || !fixes->present) throw std::runtime_error("the X server has no XFIXES extension");
  // Both extensions require the version handshake before any other request.
  XcbPtr<xcb_xfixes_query_version_reply_t> fv(
      xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 5, 0), nullptr));
  XcbPtr<xcb_damage_query_version_reply_t> dv(
      xcb_damage_query_version_reply(c, xcb_damage_query_version(c, 1, 1), nullptr));
  if (!fv || fv->major_version < 2) throw std::runtime_error("the X server's XFIXES is older than 2.0");
  if (!dv) throw std::runtime_error("the X server's DAMAGE did not answer");
  event_base_ = damage->first_event;

  region_ = xcb_generate_id(c);
  xcb_xfixes_create_region(c, region_, 0, nullptr);
  damage_ = xcb_generate_id(c);
  const std::string err = check_request(
      c, xcb_damage_create_checked(c, damage_, drawable, XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY));
  if (!err.empty()) {
    xcb_xfixes_destroy_region(c, region_);
    throw std::runtime_error("cannot track damage: " + err);
  }
}

DamageTracker::~DamageTracker() {
  xcb_damage_destroy(c_, damage_);
  xcb_xfixes_destroy_region(c_, region_);
  xcb_flush(c_);
}

bool DamageTracker::handle_event(const xcb_generic_event_t* e) {
  if ((e->response_type & 0x7f) != event_base_ + XCB_DAMAGE_NOTIFY) return false;
  const auto* n = reinterpret_cast<const xcb_damage_notify_event_t*>(e);
  if (n->damage != damage_) return false;
  notified_ = true;
  return true;
}

bool DamageTracker::take(std::vector<Rect>& out) {
  if (!notified_) return true;
  notified_ = false;
  // From here on, new drawing makes the damage non-empty again and the
  // server notifies once more: nothing is lost between subtract and fetch.
  xcb_damage_subtract(c_, damage_, XCB_NONE, region_);
  XcbPtr<xcb_xfixes_fetch_region_reply_t> r(
      xcb_xfixes_fetch_region_reply(c_, xcb_xfixes_fetch_region(c_, region_), nullptr));
  if (!r) return false;
  const xcb_rectangle_t* rects = xcb_xfixes_fetch_region_rectangles(r.get());
  const int n = xcb_xfixes_fetch_region_rectangles_length(r.get());
  for (int i = 0; i < n; ++i) out.push_back({rects[i].x, rects[i].y, rects[i].width, rects[i].height});
  return true;
}

}  // namespace voxl::platform::x11
