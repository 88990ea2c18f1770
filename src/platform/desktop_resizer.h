// Changes the size of the desktop itself, for dynamic resolution: the
// desktop follows the viewer's window instead of being scaled in the page.
// X11 uses RandR (modes made on demand on voxl's own Xvfb); Windows changes
// the display mode. Capturers notice the new size on their own and report it
// through their frames.
//
// Threads: one thread (the loop thread) owns a resizer. Blocking: resize()
// makes round trips to the display server.
#pragma once

#include <string>

#include "base/geometry.h"

namespace voxl::platform {

class DesktopResizer {
 public:
  virtual ~DesktopResizer() = default;

  // The desktop's size now.
  virtual Size current_size() = 0;
  // The largest size the desktop may take.
  virtual Size max_size() = 0;
  // Makes the desktop `size` (already rounded by the caller to what encoders
  // like). False with `error` set when the platform refused.
  virtual bool resize(Size size, std::string& error) = 0;
  // Puts back the size the desktop had before the first resize(); also done
  // by the destructor.
  virtual void restore() = 0;
  // Desktop pixels per point the display is set to (Windows' display
  // scaling: 1.5 at 150%); 0 where the platform has no such setting (X11).
  // What --resize-scale means when it is not given.
  virtual double display_scale() { return 0; }
};

}  // namespace voxl::platform
