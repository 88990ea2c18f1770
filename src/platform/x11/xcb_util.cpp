#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

std::string describe_error(const xcb_generic_error_t* e) {
  if (!e) return "no error";
  static constexpr const char* kNames[] = {
      "Success", "BadRequest", "BadValue", "BadWindow", "BadPixmap", "BadAtom",
      "BadCursor", "BadFont", "BadMatch", "BadDrawable", "BadAccess", "BadAlloc",
      "BadColor", "BadGC", "BadIDChoice", "BadName", "BadLength", "BadImplementation"};
  std::string name = e->error_code < std::size(kNames)
                         ? kNames[e->error_code]
                         : "extension error " + std::to_string(e->error_code);
  return name + " (request " + std::to_string(e->major_code) + "." +
         std::to_string(e->minor_code) + ")";
}

std::string check_request(xcb_connection_t* c, xcb_void_cookie_t cookie) {
  XcbPtr<xcb_generic_error_t> err(xcb_request_check(c, cookie));
  return err ? describe_error(err.get()) : std::string();
}

}  // namespace voxl::platform::x11
