#include "randr_query.h"

#include <cstdlib>
#include <memory>
#include <stdexcept>

#include <xcb/randr.h>
#include <xcb/xcb.h>

namespace voxl::testing {

namespace {

struct Free {
  void operator()(void* p) const { std::free(p); }
};
template <class T>
using Reply = std::unique_ptr<T, Free>;

struct Connection {
  explicit Connection(const std::string& display) : c(xcb_connect(display.c_str(), nullptr)) {
    if (xcb_connection_has_error(c)) {
      xcb_disconnect(c);
      throw std::runtime_error("cannot connect to " + display);
    }
    screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
  }
  ~Connection() { xcb_disconnect(c); }
  xcb_connection_t* c;
  xcb_screen_t* screen;
};

}  // namespace

RandrSnapshot read_randr(const std::string& display) {
  Connection conn(display);
  xcb_connection_t* c = conn.c;
  RandrSnapshot s;
  // A new connection's setup carries the screen's size now.
  s.screen = {conn.screen->width_in_pixels, conn.screen->height_in_pixels};
  s.screen_mm = {conn.screen->width_in_millimeters, conn.screen->height_in_millimeters};
  Reply<xcb_randr_get_screen_resources_current_reply_t> r(xcb_randr_get_screen_resources_current_reply(
      c, xcb_randr_get_screen_resources_current(c, conn.screen->root), nullptr));
  if (!r) throw std::runtime_error("GetScreenResourcesCurrent failed on " + display);
  const auto* modes = xcb_randr_get_screen_resources_current_modes(r.get());
  const int n = xcb_randr_get_screen_resources_current_modes_length(r.get());
  const char* names = reinterpret_cast<const char*>(xcb_randr_get_screen_resources_current_names(r.get()));
  auto name_of = [&](uint32_t id) {
    size_t at = 0;
    for (int i = 0; i < n; ++i) {
      if (modes[i].id == id) return std::string(names + at, modes[i].name_len);
      at += modes[i].name_len;
    }
    return std::string("?");
  };
  for (int i = 0; i < n; ++i) s.modes.push_back(name_of(modes[i].id));

  const auto* outputs = xcb_randr_get_screen_resources_current_outputs(r.get());
  if (xcb_randr_get_screen_resources_current_outputs_length(r.get()) > 0) {
    Reply<xcb_randr_get_output_info_reply_t> o(xcb_randr_get_output_info_reply(
        c, xcb_randr_get_output_info(c, outputs[0], r->config_timestamp), nullptr));
    if (!o) throw std::runtime_error("GetOutputInfo failed on " + display);
    const auto* om = xcb_randr_get_output_info_modes(o.get());
    for (int i = 0; i < xcb_randr_get_output_info_modes_length(o.get()); ++i) s.offered.push_back(name_of(om[i]));
    if (o->crtc) {
      Reply<xcb_randr_get_crtc_info_reply_t> k(
          xcb_randr_get_crtc_info_reply(c, xcb_randr_get_crtc_info(c, o->crtc, r->config_timestamp), nullptr));
      if (k && k->mode) s.current = name_of(k->mode);
    }
  }
  return s;
}

std::vector<std::string> voxl_modes(const RandrSnapshot& s) {
  std::vector<std::string> out;
  for (const auto& m : s.modes)
    if (m.rfind("voxl-", 0) == 0) out.push_back(m);
  return out;
}

void add_stray_mode(const std::string& display, const std::string& name, Size size) {
  Connection conn(display);
  xcb_connection_t* c = conn.c;
  xcb_randr_mode_info_t info{};
  info.width = uint16_t(size.width);
  info.height = uint16_t(size.height);
  info.htotal = uint16_t(size.width);
  info.vtotal = uint16_t(size.height);
  info.name_len = uint16_t(name.size());
  Reply<xcb_randr_create_mode_reply_t> m(xcb_randr_create_mode_reply(
      c, xcb_randr_create_mode(c, conn.screen->root, info, uint32_t(name.size()), name.data()), nullptr));
  if (!m) throw std::runtime_error("cannot create mode " + name);
  Reply<xcb_randr_get_screen_resources_current_reply_t> r(xcb_randr_get_screen_resources_current_reply(
      c, xcb_randr_get_screen_resources_current(c, conn.screen->root), nullptr));
  if (!r || xcb_randr_get_screen_resources_current_outputs_length(r.get()) < 1)
    throw std::runtime_error("no output on " + display);
  const auto output = xcb_randr_get_screen_resources_current_outputs(r.get())[0];
  Reply<xcb_generic_error_t> e(xcb_request_check(c, xcb_randr_add_output_mode_checked(c, output, m->mode)));
  if (e) throw std::runtime_error("cannot add mode " + name);
}

}  // namespace voxl::testing
