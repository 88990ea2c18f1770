// XDamage on one drawable. The server sends a single notification when the
// drawable goes from clean to damaged (ReportNonEmpty); take() then moves
// everything accumulated into an XFixes region, fetches its rectangles and
// leaves the server clean again, so a busy screen costs one round trip per
// frame and an idle one costs nothing.
//
// Threads: owned by the thread that owns the connection.
#pragma once

#include <vector>

#include <xcb/damage.h>
#include <xcb/xcb.h>
#include <xcb/xfixes.h>

#include "base/geometry.h"

namespace voxl::platform::x11 {

class DamageTracker {
 public:
  // Throws std::runtime_error when the server lacks DAMAGE or XFIXES 2.
  DamageTracker(xcb_connection_t* c, xcb_drawable_t drawable);
  ~DamageTracker();
  DamageTracker(const DamageTracker&) = delete;
  DamageTracker& operator=(const DamageTracker&) = delete;

  // Feeds one event from the connection; true if it was our notification.
  bool handle_event(const xcb_generic_event_t* e);
  bool notified() const { return notified_; }

  // Appends the damaged rectangles (drawable coordinates) and clears them on
  // the server. One round trip; nothing when not notified. False when the
  // server did not answer: the caller must then assume everything changed.
  bool take(std::vector<Rect>& out);

 private:
  xcb_connection_t* c_;
  xcb_damage_damage_t damage_ = 0;
  xcb_xfixes_region_t region_ = 0;
  uint8_t event_base_ = 0;
  bool notified_ = false;
};

}  // namespace voxl::platform::x11
