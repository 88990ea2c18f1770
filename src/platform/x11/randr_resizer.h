// DesktopResizer for an X display through RandR 1.2+: the desktop's one lit
// output is switched to a mode of exactly the size asked for, an existing
// one when the output offers it, else one voxl makes on the spot (CVT
// reduced-blanking timings, named "voxl-WxH"). The screen is resized around
// the CRTC so that the CRTC always fits it, the DPI is kept (the physical
// size follows the pixels), and the modes voxl made are deleted as soon as
// no CRTC uses them. Modes named "voxl-..." that a crashed run left behind
// are deleted at start.
//
// Limits: the screen's size range (RandR GetScreenSizeRange) bounds every
// size; Xvfb's largest is the size it was started at, because its
// framebuffer never grows (see linux_desktop_environment.cpp: voxl's own
// Xvfb starts at the largest size, which costs width x height x 4 bytes of
// shared memory whatever the desktop's size). A desktop with more than one
// lit monitor is not resized. On real hardware a made mode may be one the
// monitor cannot show; Xvfb and monitor-less drivers (Xorg's dummy, virtual
// GPUs) show any.
//
// restore() (also the destructor) puts back the size and mode the desktop
// had before the first resize() and deletes every voxl mode no CRTC uses.
// All changes happen under a server grab, so no client sees a half-made
// configuration.
//
// When the X server goes away, calls fail with an error (never throw); the
// next call connects again, so a desktop that restarts is followed.
//
// Threads and ownership: one thread owns it (see DesktopResizer), whoever
// made it; it has its own X connection. Blocking: every call makes round
// trips to the server.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "base/logging.h"
#include "platform/desktop_resizer.h"

namespace voxl::platform::x11 {

class XcbConnection;
struct RandrState;  // a snapshot of the server's RandR configuration (randr_state.h)

class RandrResizer final : public DesktopResizer {
 public:
  // Connects to `display` (empty: $DISPLAY) and checks that it can follow:
  // RandR 1.2 or later, one lit output, and the server accepts a new mode
  // (a test mode is made and deleted). Null with `why` set when not.
  static std::unique_ptr<RandrResizer> open(const std::string& display, Logger log, std::string& why);
  ~RandrResizer() override;
  RandrResizer(const RandrResizer&) = delete;
  RandrResizer& operator=(const RandrResizer&) = delete;

  Size current_size() override;
  Size max_size() override;
  Size min_size() const { return min_; }
  // Refuses sizes outside the screen's size range with a sentence naming it.
  bool resize(Size size, std::string& error) override;
  void restore() override;
  // What the desktop is now becomes what restore() returns to (voxl's own
  // Xvfb, brought from its start size to the configured one).
  void keep_current_as_original() { original_.reset(); }

 private:
  RandrResizer(std::string display, Logger log);

  // Opens the connection and learns the server; false with `why`.
  bool connect(std::string& why);
  // Connected, or connects again after the server went away.
  bool ensure_connected(std::string& error);
  // Switches to `target` with the screen's physical size `mm`; the mode
  // `prefer` is used when it is still offered with that size.
  bool apply(Size target, Size mm, uint32_t prefer, std::string& error);
  // Makes sure the output offers a mode of `mode_size`; its id, or 0.
  uint32_t mode_for(const RandrState& s, Size mode_size, uint32_t prefer, bool& made, std::string& error);
  bool set_screen_size(Size size, Size mm, std::string& error);
  // Deletes the voxl modes no CRTC uses; how many.
  int delete_unused_voxl_modes();
  // Makes and deletes a throw-away mode; empty when the server allows it.
  std::string probe_mode_creation();
  std::string lost_text() const;

  std::string display_;
  Logger log_;
  std::unique_ptr<XcbConnection> conn_;
  bool randr13_ = false;  // RandR 1.3 or later
  Size min_, max_;
  // The screen's pixels and millimetres when connected: the DPI to keep.
  Size reference_pixels_, reference_mm_;
  Size last_size_;  // what the desktop was when last asked

  struct Original {
    Size size;
    Size mm;
    uint32_t mode = 0;  // 0: any mode of that size (after a reconnect)
  };
  std::optional<Original> original_;  // set by the first resize()
};

}  // namespace voxl::platform::x11
