#include "platform/x11/randr_state.h"

#include <cstdlib>
#include <optional>
#include <span>
#include <utility>

#include "platform/x11/randr_requests.h"
#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

namespace {

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

}  // namespace

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

}  // namespace voxl::platform::x11
