#include "platform/x11/randr_resizer.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include <xcb/randr.h>

#include "platform/x11/pixel_source.h"
#include "platform/x11/randr_mode_plan.h"
#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

struct RandrState {
  struct Mode {
    uint32_t id = 0;
    Size size;
    std::string name;
    uint32_t flags = 0;
  };
  struct Output {
    uint32_t id = 0;
    bool connected = false;
    uint32_t crtc = 0;
    std::vector<uint32_t> modes;
  };
  struct Crtc {
    uint32_t id = 0;
    uint32_t mode = 0;  // 0: off
    int x = 0, y = 0;
    Size size;  // on the screen, after rotation
    uint16_t rotation = XCB_RANDR_ROTATION_ROTATE_0;
    std::vector<uint32_t> outputs;
  };

  xcb_timestamp_t config_timestamp = XCB_CURRENT_TIME;
  Size screen;
  std::vector<Mode> modes;
  std::vector<Output> outputs;
  std::vector<Crtc> crtcs;
  // The one lit CRTC and the output (of those it drives) that decides.
  size_t crtc = 0;
  size_t output = 0;

  const Mode* find_mode(uint32_t id) const {
    for (const Mode& m : modes)
      if (m.id == id) return &m;
    return nullptr;
  }
  const Mode* find_mode(std::string_view name) const {
    for (const Mode& m : modes)
      if (m.name == name) return &m;
    return nullptr;
  }
  const Output* find_output(uint32_t id) const {
    for (const Output& o : outputs)
      if (o.id == id) return &o;
    return nullptr;
  }
  bool used_by_a_crtc(uint32_t mode) const {
    return std::any_of(crtcs.begin(), crtcs.end(), [&](const Crtc& c) { return c.mode == mode; });
  }
};

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

std::string reply_error(const char* request, xcb_generic_error_t* raw, const XcbConnection& conn) {
  XcbPtr<xcb_generic_error_t> e(raw);
  if (conn.failed()) return std::string("RandR ") + request + ": the X connection was lost";
  return std::string("RandR ") + request + ": " + (e ? describe_error(e.get()) : "no reply");
}

void add_resources(RandrState& s, std::span<const xcb_randr_crtc_t> crtcs,
                   std::span<const xcb_randr_output_t> outputs, std::span<const xcb_randr_mode_info_t> modes,
                   std::span<const uint8_t> names) {
  size_t at = 0;
  for (const auto& m : modes) {
    RandrState::Mode mode;
    mode.id = m.id;
    mode.size = {m.width, m.height};
    mode.flags = m.mode_flags;
    const size_t len = std::min<size_t>(m.name_len, names.size() - std::min(at, names.size()));
    if (len) mode.name.assign(reinterpret_cast<const char*>(names.data() + at), len);
    at += m.name_len;
    s.modes.push_back(std::move(mode));
  }
  for (xcb_randr_output_t o : outputs) s.outputs.push_back({o, false, 0, {}});
  for (xcb_randr_crtc_t c : crtcs) s.crtcs.push_back({c, 0, 0, 0, {}, XCB_RANDR_ROTATION_ROTATE_0, {}});
}

// Reads the server's configuration and finds the one lit CRTC; false with
// `error` when the reading fails or the desktop has not exactly one.
// `current`: the server has RandR 1.3's GetScreenResourcesCurrent (which
// does not make the driver probe its outputs).
bool load_state(const XcbConnection& conn, bool current, RandrState& s, std::string& error) {
  xcb_connection_t* c = conn.get();
  const xcb_window_t root = conn.root();
  xcb_generic_error_t* e = nullptr;
  if (current) {
    XcbPtr<xcb_randr_get_screen_resources_current_reply_t> r(xcb_randr_get_screen_resources_current_reply(
        c, xcb_randr_get_screen_resources_current(c, root), &e));
    if (!r) {
      error = reply_error("GetScreenResourcesCurrent", e, conn);
      return false;
    }
    s.config_timestamp = r->config_timestamp;
    add_resources(
        s, {xcb_randr_get_screen_resources_current_crtcs(r.get()),
            size_t(xcb_randr_get_screen_resources_current_crtcs_length(r.get()))},
        {xcb_randr_get_screen_resources_current_outputs(r.get()),
         size_t(xcb_randr_get_screen_resources_current_outputs_length(r.get()))},
        {xcb_randr_get_screen_resources_current_modes(r.get()),
         size_t(xcb_randr_get_screen_resources_current_modes_length(r.get()))},
        {xcb_randr_get_screen_resources_current_names(r.get()),
         size_t(xcb_randr_get_screen_resources_current_names_length(r.get()))});
  }
  if (s.outputs.empty()) {
    // RandR 1.2, or a server that lists its outputs only once they have
    // been probed, which the full (slower) request does.
    s = RandrState{};
    XcbPtr<xcb_randr_get_screen_resources_reply_t> r(
        xcb_randr_get_screen_resources_reply(c, xcb_randr_get_screen_resources(c, root), &e));
    if (!r) {
      error = reply_error("GetScreenResources", e, conn);
      return false;
    }
    s.config_timestamp = r->config_timestamp;
    add_resources(s, {xcb_randr_get_screen_resources_crtcs(r.get()),
                      size_t(xcb_randr_get_screen_resources_crtcs_length(r.get()))},
                  {xcb_randr_get_screen_resources_outputs(r.get()),
                   size_t(xcb_randr_get_screen_resources_outputs_length(r.get()))},
                  {xcb_randr_get_screen_resources_modes(r.get()),
                   size_t(xcb_randr_get_screen_resources_modes_length(r.get()))},
                  {xcb_randr_get_screen_resources_names(r.get()),
                   size_t(xcb_randr_get_screen_resources_names_length(r.get()))});
  }

  // Every question first, then the answers: one round trip's latency.
  std::vector<xcb_randr_get_output_info_cookie_t> oc;
  for (const auto& o : s.outputs) oc.push_back(xcb_randr_get_output_info(c, o.id, s.config_timestamp));
  std::vector<xcb_randr_get_crtc_info_cookie_t> cc;
  for (const auto& k : s.crtcs) cc.push_back(xcb_randr_get_crtc_info(c, k.id, s.config_timestamp));
  std::optional<xcb_randr_get_output_primary_cookie_t> pc;  // RandR 1.3
  if (current) pc = xcb_randr_get_output_primary(c, root);
  bool ok = true;
  for (size_t i = 0; i < oc.size(); ++i) {
    XcbPtr<xcb_randr_get_output_info_reply_t> r(xcb_randr_get_output_info_reply(c, oc[i], &e));
    if (!r) {
      if (ok) error = reply_error("GetOutputInfo", e, conn);
      else std::free(e);
      ok = false;
      continue;
    }
    auto& o = s.outputs[i];
    o.connected = r->connection == XCB_RANDR_CONNECTION_CONNECTED;
    o.crtc = r->crtc;
    const xcb_randr_mode_t* m = xcb_randr_get_output_info_modes(r.get());
    o.modes.assign(m, m + xcb_randr_get_output_info_modes_length(r.get()));
  }
  for (size_t i = 0; i < cc.size(); ++i) {
    XcbPtr<xcb_randr_get_crtc_info_reply_t> r(xcb_randr_get_crtc_info_reply(c, cc[i], &e));
    if (!r) {
      if (ok) error = reply_error("GetCrtcInfo", e, conn);
      else std::free(e);
      ok = false;
      continue;
    }
    auto& k = s.crtcs[i];
    k.mode = r->mode;
    k.x = r->x;
    k.y = r->y;
    k.size = {r->width, r->height};
    k.rotation = r->rotation;
    const xcb_randr_output_t* o = xcb_randr_get_crtc_info_outputs(r.get());
    k.outputs.assign(o, o + xcb_randr_get_crtc_info_outputs_length(r.get()));
  }
  XcbPtr<xcb_randr_get_output_primary_reply_t> primary;
  if (pc) {
    primary.reset(xcb_randr_get_output_primary_reply(c, *pc, &e));
    std::free(e);  // none is set: the first output of the CRTC decides
  }
  if (!ok) return false;
  s.screen = conn.root_size();

  std::vector<size_t> lit;
  for (size_t i = 0; i < s.crtcs.size(); ++i)
    if (s.crtcs[i].mode != 0 && !s.crtcs[i].outputs.empty()) lit.push_back(i);
  if (lit.empty()) {
    error = "no monitor is lit (no RandR CRTC drives an output)";
    return false;
  }
  if (lit.size() > 1) {
    error = std::to_string(lit.size()) + " monitors are lit; voxl resizes a desktop of one monitor only";
    return false;
  }
  s.crtc = lit.front();
  const auto& crtc = s.crtcs[s.crtc];
  uint32_t chosen = crtc.outputs.front();
  if (primary && std::find(crtc.outputs.begin(), crtc.outputs.end(), primary->output) != crtc.outputs.end())
    chosen = primary->output;
  for (size_t i = 0; i < s.outputs.size(); ++i)
    if (s.outputs[i].id == chosen) s.output = i;
  if (s.outputs.empty() || s.outputs[s.output].id != chosen) {
    error = "the lit CRTC drives an output the server does not list";
    return false;
  }
  return true;
}

uint32_t create_mode(const XcbConnection& conn, Size size, const std::string& name, std::string& error) {
  const ModeTimings t = reduced_blanking_timings(size);
  xcb_randr_mode_info_t info{};
  info.width = uint16_t(t.size.width);
  info.height = uint16_t(t.size.height);
  info.dot_clock = t.dot_clock;
  info.hsync_start = uint16_t(t.hsync_start);
  info.hsync_end = uint16_t(t.hsync_end);
  info.htotal = uint16_t(t.htotal);
  info.vsync_start = uint16_t(t.vsync_start);
  info.vsync_end = uint16_t(t.vsync_end);
  info.vtotal = uint16_t(t.vtotal);
  info.name_len = uint16_t(name.size());
  info.mode_flags = (t.hsync_positive ? XCB_RANDR_MODE_FLAG_HSYNC_POSITIVE : XCB_RANDR_MODE_FLAG_HSYNC_NEGATIVE) |
                    (t.vsync_negative ? XCB_RANDR_MODE_FLAG_VSYNC_NEGATIVE : XCB_RANDR_MODE_FLAG_VSYNC_POSITIVE);
  xcb_connection_t* c = conn.get();
  xcb_generic_error_t* e = nullptr;
  XcbPtr<xcb_randr_create_mode_reply_t> r(xcb_randr_create_mode_reply(
      c, xcb_randr_create_mode(c, conn.root(), info, uint32_t(name.size()), name.data()), &e));
  if (!r || r->mode == 0) {
    error = reply_error("CreateMode", e, conn) + " for " + name;
    return 0;
  }
  std::free(e);
  return r->mode;
}

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
