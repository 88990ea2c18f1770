// Pixels through GDI: BitBlt of a rectangle of the desktop (the screen DC,
// virtual-desktop coordinates) or of a window's client area into a 32-bit
// top-down DIB section, which is BGRX in memory like Frame. Two DIBs take
// turns, so each grab is compared with the one before it block by block:
// GDI reports no changes, so that comparison is how damage is found.
//
// Threads: one thread owns a grabber (the capturer's). Blocking: a grab
// copies the whole area once (BitBlt) and compares it once.
#pragma once

#include <windows.h>

#include <string>

#include "base/block_map.h"
#include "base/geometry.h"
#include "platform/windows/capture/image_blocks.h"

namespace voxl::platform::windows {

class GdiGrabber {
 public:
  // `window` null: the desktop; otherwise that window's client area.
  explicit GdiGrabber(HWND window = nullptr);
  ~GdiGrabber();
  GdiGrabber(const GdiGrabber&) = delete;
  GdiGrabber& operator=(const GdiGrabber&) = delete;

  // Grabs `area` (screen coordinates for the desktop, client coordinates for
  // a window) and marks in `changed` (reset to the area's size) the blocks
  // that differ from the previous grab: all of them after a size change or
  // forget(). Empty on success, else why; a failed grab leaves the previous
  // picture as it was.
  std::string grab(const Rect& area, BlockMap& changed);
  // The newest grab; empty before the first.
  ImageView image() const;
  // The next grab reports everything as changed.
  void forget() { have_previous_ = false; }

 private:
  struct Dib {
    HBITMAP bitmap = nullptr;
    uint8_t* bits = nullptr;
    Size size;
  };
  std::string ensure(Dib& d, Size s);
  static void release(Dib& d);

  HWND window_;
  HDC memory_dc_ = nullptr;
  Dib dibs_[2];
  int current_ = 0;  // index of the newest grab
  bool have_previous_ = false;
};

}  // namespace voxl::platform::windows
