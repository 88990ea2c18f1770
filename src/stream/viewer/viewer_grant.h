// Who a viewer is and what it may do, as its sign-in decided (the server's
// access policy): handed from the server to the viewer's connection. Pure
// data; any thread.
#pragma once

#include <string>

#include "input/viewer_permissions.h"

namespace voxl::stream {

struct ViewerGrant {
  std::string user;  // a signed-in user's name; "" for the token, or no credential needed
  std::string address;  // where the viewer connects from (a trusted proxy's client)
  input::ViewerPermissions input;
  bool files = true;  // may use the Files panel (one direction at least)

  bool view_only() const { return !input.control; }
  static ViewerGrant from_view_only(bool view_only) {
    ViewerGrant g;
    g.input = input::ViewerPermissions::from_view_only(view_only);
    g.files = !view_only;
    return g;
  }
};

}  // namespace voxl::stream
