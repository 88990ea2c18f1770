#include "platform/x11/randr_resizer.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <xcb/randr.h>

#include "platform/x11/pixel_source.h"
#include "platform/x11/randr_mode_plan.h"
#include "platform/x11/randr_requests.h"
#include "platform/x11/randr_state.h"
#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

namespace {

constexpr uint32_t kInterlaceOrDoubleScan = XCB_RANDR_MODE_FLAG_INTERLACE | XCB_RANDR_MODE_FLAG_DOUBLE_SCAN;

// Holds the server for the life of a configuration change: other clients
// see the screen and the CRTC change together.
class ServerGrab {
 public:
  explicit ServerGrab(xcb_connection_t* c) : c_(c) { xcb_grab_server(c_); }
  ~ServerGrab() {
    xcb_ungrab_server(c_);
    xcb_flush(c_);
  }
  ServerGrab(const ServerGrab&) = delete;
  ServerGrab& operator=(const ServerGrab&) = delete;

 private:
  xcb_connection_t* c_;
};

}  // namespace

std::unique_ptr<RandrResizer> RandrResizer::open(const std::string& display, Logger log, std::string& why) {
  std::unique_ptr<RandrResizer> r(new RandrResizer(display, std::move(log)));
  if (!r->connect(why)) {
    why = "cannot resize the desktop: " + why;
    return nullptr;
  }
  return r;
}

RandrResizer::RandrResizer(std::string display, Logger log) : display_(std::move(display)), log_(std::move(log)) {}

RandrResizer::~RandrResizer() {
  try {
    restore();
  } catch (const std::exception& e) {
    log_->warn("restoring the desktop's size failed: {}", e.what());
  } catch (...) {
  }
}

bool RandrResizer::connect(std::string& why) {
  try {
    conn_ = std::make_unique<XcbConnection>(display_);
  } catch (const std::exception& e) {
    why = e.what();
    return false;
  }
  xcb_connection_t* c = conn_->get();
  const std::string name = conn_->display_name();
  display_ = name;  // "" meant $DISPLAY: name it in later messages, and keep to it
  auto fail = [&](std::string text) {
    why = std::move(text);
    conn_.reset();
    return false;
  };
  const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c, &xcb_randr_id);
  if (!ext || !ext->present) return fail("the X server " + name + " has no RANDR extension");
  xcb_generic_error_t* e = nullptr;
  XcbPtr<xcb_randr_query_version_reply_t> v(
      xcb_randr_query_version_reply(c, xcb_randr_query_version(c, 1, 6), &e));
  if (!v) return fail(reply_error("QueryVersion", e, *conn_) + " on " + name);
  if (v->major_version < 1 || (v->major_version == 1 && v->minor_version < 2))
    return fail("the X server " + name + " has RandR " + std::to_string(v->major_version) + "." +
                std::to_string(v->minor_version) + "; making display modes needs 1.2 or later");
  randr13_ = v->major_version > 1 || v->minor_version >= 3;
  XcbPtr<xcb_randr_get_screen_size_range_reply_t> range(xcb_randr_get_screen_size_range_reply(
      c, xcb_randr_get_screen_size_range(c, conn_->root()), &e));
  if (!range) return fail(reply_error("GetScreenSizeRange", e, *conn_));
  min_ = {range->min_width, range->min_height};
  max_ = {range->max_width, range->max_height};
  reference_pixels_ = {conn_->screen()->width_in_pixels, conn_->screen()->height_in_pixels};
  reference_mm_ = {conn_->screen()->width_in_millimeters, conn_->screen()->height_in_millimeters};

  RandrState s;
  std::string error;
  if (!load_state(*conn_, randr13_, s, error)) return fail(name + ": " + error);
  if (const int n = delete_unused_voxl_modes())
    log_->info("deleted {} display mode(s) an earlier voxl left on {}", n, name);
  if (const std::string probe = probe_mode_creation(); !probe.empty())
    return fail("the X server " + name + " does not let voxl make display modes: " + probe);
  last_size_ = conn_->root_size();
  return true;
}

bool RandrResizer::ensure_connected(std::string& error) {
  if (conn_ && !conn_->failed()) return true;
  if (conn_) log_->warn("lost the X display {}; resizing will connect again", display_);
  conn_.reset();
  std::string why;
  if (!connect(why)) {
    error = "cannot resize the desktop: " + why;
    return false;
  }
  log_->info("connected to {} again for resizing", conn_->display_name());
  // A restarted server numbers its modes afresh: restore by size only.
  if (original_) original_->mode = 0;
  return true;
}

std::string RandrResizer::lost_text() const { return "the X display " + display_ + " went away"; }

Size RandrResizer::current_size() {
  std::string ignored;
  if (ensure_connected(ignored)) last_size_ = conn_->root_size();
  return last_size_;
}

Size RandrResizer::max_size() {
  std::string ignored;
  ensure_connected(ignored);
  return max_;
}

bool RandrResizer::resize(Size size, std::string& error) {
  if (!ensure_connected(error)) return false;
  if (std::string why = check_size_range(size, min_, max_); !why.empty()) {
    error = why;
    return false;
  }
  if (!original_) {
    RandrState s;
    if (!load_state(*conn_, randr13_, s, error)) return false;
    const Size now = s.screen;
    original_ = Original{now,
                         now == reference_pixels_ ? reference_mm_
                                                  : millimetres_for(now, reference_pixels_, reference_mm_),
                         s.crtcs[s.crtc].mode};
  }
  if (!apply(size, millimetres_for(size, reference_pixels_, reference_mm_), 0, error)) {
    if (conn_->failed()) error = lost_text() + " (" + error + ")";
    return false;
  }
  last_size_ = size;
  return true;
}

void RandrResizer::restore() {
  std::string error;
  if (!ensure_connected(error)) {
    if (original_) log_->warn("cannot put the desktop back to {}: {}", size_text(original_->size), error);
    return;
  }
  if (!original_) {
    delete_unused_voxl_modes();
    return;
  }
  if (!apply(original_->size, original_->mm, original_->mode, error)) {
    log_->warn("cannot put the desktop back to {}: {}", size_text(original_->size), error);
    return;
  }
  last_size_ = original_->size;
}

bool RandrResizer::set_screen_size(Size size, Size mm, std::string& error) {
  xcb_connection_t* c = conn_->get();
  const std::string err = check_request(
      c, xcb_randr_set_screen_size_checked(c, conn_->root(), uint16_t(size.width), uint16_t(size.height),
                                           uint32_t(mm.width), uint32_t(mm.height)));
  if (err.empty()) return true;
  error = "RandR SetScreenSize " + size_text(size) + ": " + (conn_->failed() ? "the X connection was lost" : err);
  return false;
}

uint32_t RandrResizer::mode_for(const RandrState& s, Size mode_size, uint32_t prefer, bool& made,
                                std::string& error) {
  made = false;
  const auto& output = s.outputs[s.output];
  const auto& crtc = s.crtcs[s.crtc];
  std::vector<OfferedMode> offered;
  for (uint32_t id : output.modes)
    if (const auto* m = s.find_mode(id))
      offered.push_back({id, m->size, m->name, (m->flags & kInterlaceOrDoubleScan) != 0});
  uint32_t mode = 0;
  const auto* preferred = prefer ? s.find_mode(prefer) : nullptr;
  if (preferred && preferred->size == mode_size &&
      std::find(output.modes.begin(), output.modes.end(), prefer) != output.modes.end())
    mode = prefer;
  else if (auto id = pick_mode(offered, mode_size, crtc.mode))
    mode = *id;
  else if (const auto* known = s.find_mode(voxl_mode_name(mode_size)))
    mode = known->id;  // made before, offered by no output yet
  else if ((mode = create_mode(*conn_, mode_size, voxl_mode_name(mode_size), error)) == 0)
    return 0;
  else
    made = true;

  // Every output the CRTC drives must offer it.
  xcb_connection_t* c = conn_->get();
  for (uint32_t id : crtc.outputs) {
    const auto* o = s.find_output(id);
    if (!o || std::find(o->modes.begin(), o->modes.end(), mode) != o->modes.end()) continue;
    if (std::string err = check_request(c, xcb_randr_add_output_mode_checked(c, id, mode)); !err.empty()) {
      error = "RandR AddOutputMode " + voxl_mode_name(mode_size) + ": " + err;
      return 0;
    }
  }
  return mode;
}

bool RandrResizer::apply(Size target, Size mm, uint32_t prefer, std::string& error) {
  xcb_connection_t* c = conn_->get();
  ServerGrab grab(c);
  RandrState s;
  if (!load_state(*conn_, randr13_, s, error)) return false;
  const auto& crtc = s.crtcs[s.crtc];
  if (s.screen == target && crtc.size == target && crtc.x == 0 && crtc.y == 0 &&
      (prefer == 0 || prefer == crtc.mode)) {
    delete_unused_voxl_modes();
    return true;
  }

  const Size mode_size = mode_size_for(target, crtc.rotation);
  bool made = false;
  const uint32_t mode = mode_for(s, mode_size, prefer, made, error);
  if (!mode) {
    delete_unused_voxl_modes();
    return false;
  }
  // The physical size of an intermediate screen keeps the DPI; the last
  // step gets `mm` exactly (restore() puts back the original's).
  auto mm_of = [&](Size px) { return px == target ? mm : millimetres_for(px, reference_pixels_, reference_mm_); };
  const ScreenSteps steps = plan_screen_steps(s.screen, target);
  if (steps.before_crtc && !set_screen_size(*steps.before_crtc, mm_of(*steps.before_crtc), error)) {
    delete_unused_voxl_modes();
    return false;
  }
  xcb_generic_error_t* e = nullptr;
  XcbPtr<xcb_randr_set_crtc_config_reply_t> r(xcb_randr_set_crtc_config_reply(
      c,
      xcb_randr_set_crtc_config(c, crtc.id, XCB_CURRENT_TIME, s.config_timestamp, 0, 0, mode, crtc.rotation,
                                uint32_t(crtc.outputs.size()), crtc.outputs.data()),
      &e));
  if (!r || r->status != XCB_RANDR_SET_CONFIG_SUCCESS) {
    error = r ? "RandR SetCrtcConfig refused " + size_text(mode_size) + " (status " + std::to_string(r->status) + ")"
              : reply_error("SetCrtcConfig", e, *conn_);
    if (r) std::free(e);
    std::string ignored;
    if (steps.before_crtc && !conn_->failed())
      set_screen_size(s.screen, millimetres_for(s.screen, reference_pixels_, reference_mm_), ignored);
    delete_unused_voxl_modes();
    return false;
  }
  if (steps.after_crtc && !set_screen_size(*steps.after_crtc, mm_of(*steps.after_crtc), error)) {
    delete_unused_voxl_modes();
    return false;
  }
  const int deleted = delete_unused_voxl_modes();
  const auto* used = s.find_mode(mode);
  log_->info("desktop resized from {} to {} (mode {}{}{})", size_text(s.screen), size_text(target),
             used ? used->name : voxl_mode_name(mode_size), made ? ", made for it" : "",
             deleted ? ", " + std::to_string(deleted) + " unused voxl mode(s) deleted" : "");
  return true;
}

int RandrResizer::delete_unused_voxl_modes() {
  if (!conn_ || conn_->failed()) return 0;
  RandrState s;
  std::string error;
  // The lit-CRTC check does not matter here, only the lists.
  if (!load_state(*conn_, randr13_, s, error) && s.modes.empty()) return 0;
  xcb_connection_t* c = conn_->get();
  int deleted = 0;
  for (const auto& m : s.modes) {
    if (!is_voxl_mode_name(m.name) || s.used_by_a_crtc(m.id)) continue;
    std::string err;
    for (const auto& o : s.outputs)
      if (err.empty() && std::find(o.modes.begin(), o.modes.end(), m.id) != o.modes.end())
        err = check_request(c, xcb_randr_delete_output_mode_checked(c, o.id, m.id));
    if (err.empty()) err = check_request(c, xcb_randr_destroy_mode_checked(c, m.id));
    if (err.empty()) ++deleted;
    else log_->debug("cannot delete display mode {}: {}", m.name, err);
  }
  return deleted;
}

std::string RandrResizer::probe_mode_creation() {
  RandrState s;
  std::string error;
  if (!load_state(*conn_, randr13_, s, error)) return error;
  const auto& crtc = s.crtcs[s.crtc];
  const Size size = mode_size_for(crtc.size, crtc.rotation);
  const uint32_t mode = create_mode(*conn_, size, std::string(kVoxlProbeModeName), error);
  if (!mode) return error;
  xcb_connection_t* c = conn_->get();
  const uint32_t output = s.outputs[s.output].id;
  std::string err = check_request(c, xcb_randr_add_output_mode_checked(c, output, mode));
  if (!err.empty()) error = "RandR AddOutputMode: " + err;
  else if (err = check_request(c, xcb_randr_delete_output_mode_checked(c, output, mode)); !err.empty())
    error = "RandR DeleteOutputMode: " + err;
  if (err = check_request(c, xcb_randr_destroy_mode_checked(c, mode)); !err.empty() && error.empty())
    error = "RandR DestroyMode: " + err;
  return error;
}

}  // namespace voxl::platform::x11
