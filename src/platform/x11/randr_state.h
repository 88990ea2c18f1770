// A snapshot of an X server's RandR configuration, as the RandR resizer
// (randr_resizer.h) reads it before every change: the modes, the outputs
// and the CRTCs, and which CRTC is the one lit and which of its outputs
// decides. Internal to platform/x11.
//
// Threads: whoever owns the connection. Blocking: load_state() makes a
// round trip to the server.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <xcb/randr.h>

#include "base/geometry.h"

namespace voxl::platform::x11 {

class XcbConnection;

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

// Reads the server's configuration and finds the one lit CRTC; false with
// `error` when the reading fails or the desktop has not exactly one.
// `current`: the server has RandR 1.3's GetScreenResourcesCurrent (which
// does not make the driver probe its outputs).
bool load_state(const XcbConnection& conn, bool current, RandrState& s, std::string& error);

}  // namespace voxl::platform::x11
