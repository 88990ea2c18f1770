// What one viewer may do to the desktop, from the rights its sign-in gave
// (net/rights.h): take control (keyboard, pointer, resize, microphone), put
// what it copied into the desktop's clipboard (which takes control too),
// and receive what the desktop copies. Pure data; any thread.
#pragma once

namespace voxl::input {

struct ViewerPermissions {
  bool control = true;
  bool clipboard_in = true;
  bool clipboard_out = true;

  // A viewer who may only watch (a view-only password).
  static constexpr ViewerPermissions watching() { return {false, false, false}; }
  // Everything, or watching only.
  static constexpr ViewerPermissions from_view_only(bool view_only) {
    return view_only ? watching() : ViewerPermissions{};
  }
};

}  // namespace voxl::input
