// Small RAII helpers for XCB replies and errors. Internal to capture/x11.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include <xcb/xcb.h>

namespace voxl::platform::x11 {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

template <class T>
using XcbPtr = std::unique_ptr<T, FreeDeleter>;

// "BadMatch (request 73.0)" and the like, for logs.
std::string describe_error(const xcb_generic_error_t* e);

// Checks a void request; empty string when it succeeded.
std::string check_request(xcb_connection_t* c, xcb_void_cookie_t cookie);

}  // namespace voxl::platform::x11
