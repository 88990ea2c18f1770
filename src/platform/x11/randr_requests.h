// The RandR requests that both the state reader (randr_state.h) and the
// resizer (randr_resizer.h) make or word: the sentence for a request that
// failed, and CreateMode with the timings voxl gives its modes
// (randr_mode_plan.h). Internal to platform/x11.
//
// Threads: whoever owns the connection. Blocking: create_mode() makes a
// round trip to the server.
#pragma once

#include <cstdint>
#include <string>

#include <xcb/xcb.h>

#include "base/geometry.h"

namespace voxl::platform::x11 {

class XcbConnection;

// "RandR <request>: <the error>", or that the connection was lost. Frees
// `raw` (which may be null: no reply).
std::string reply_error(const char* request, xcb_generic_error_t* raw, const XcbConnection& conn);

// Makes a mode of `size` named `name`; its id, or 0 with `error` set.
uint32_t create_mode(const XcbConnection& conn, Size size, const std::string& name, std::string& error);

}  // namespace voxl::platform::x11
