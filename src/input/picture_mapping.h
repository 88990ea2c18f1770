// The one mapping from the picture to the desktop. Viewers click in the
// stream's picture and agents give /input positions in it (the picture is
// also what /screenshot shows); the platform's InputInjector takes desktop
// coordinates. The picture's pixel 0,0 lies at `origin` on the desktop (a
// captured region's corner, a captured window's current position), and a
// position is clamped to the captured area first, so a pointer dragged
// past the picture's edge stays on what is captured instead of reaching
// a window beside it.
//
// A plain value, any thread; the loop thread keeps the current one in
// input::Interaction, following each encoded frame.
#pragma once

#include "base/geometry.h"

namespace voxl::input {

struct PictureMapping {
  Point origin;  // desktop position of the picture's pixel 0,0
  Size area;     // the captured area's size; empty: not known yet

  bool known() const { return !area.empty(); }
  // Picture coordinates to desktop coordinates: clamped to
  // [0, width-1] x [0, height-1] of the area, then moved by the origin.
  // While the area is not known only negative positions are clamped (to 0).
  Point to_desktop(int x, int y) const;
  // The captured area on the desktop.
  Rect desktop_area() const { return {origin.x, origin.y, area.width, area.height}; }
  // A rectangle in picture coordinates, on the desktop (not clipped).
  Rect to_desktop(const Rect& r) const { return r.translated(origin.x, origin.y); }

  friend bool operator==(const PictureMapping&, const PictureMapping&) = default;
};

}  // namespace voxl::input
