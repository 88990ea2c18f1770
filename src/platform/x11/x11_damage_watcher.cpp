#include "platform/x11/x11_damage_watcher.h"

#include <cstdlib>

#include "platform/x11/damage_tracker.h"
#include "platform/x11/xcb_connection.h"

namespace voxl::platform::x11 {

X11DamageWatcher::X11DamageWatcher(const std::string& display)
    : conn_(std::make_unique<XcbConnection>(display)),
      damage_(std::make_unique<DamageTracker>(conn_->get(), conn_->root())) {
  xcb_flush(conn_->get());
}

X11DamageWatcher::~X11DamageWatcher() = default;

int X11DamageWatcher::fd() const { return conn_->fd(); }

bool X11DamageWatcher::poll() {
  while (xcb_generic_event_t* e = xcb_poll_for_event(conn_->get())) {
    damage_->handle_event(e);
    std::free(e);
  }
  return damage_->notified();
}

void X11DamageWatcher::sync() {
  if (!failed()) conn_->sync();
}

bool X11DamageWatcher::take(std::vector<Rect>& out) {
  if (failed()) return false;
  return damage_->take(out);
}

bool X11DamageWatcher::failed() const { return conn_->failed(); }

}  // namespace voxl::platform::x11
