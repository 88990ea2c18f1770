#include "platform/x11/randr_requests.h"

#include <cstdlib>

#include <xcb/randr.h>

#include "platform/x11/randr_mode_plan.h"
#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

std::string reply_error(const char* request, xcb_generic_error_t* raw, const XcbConnection& conn) {
  XcbPtr<xcb_generic_error_t> e(raw);
  if (conn.failed()) return std::string("RandR ") + request + ": the X connection was lost";
  return std::string("RandR ") + request + ": " + (e ? describe_error(e.get()) : "no reply");
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

}  // namespace voxl::platform::x11
