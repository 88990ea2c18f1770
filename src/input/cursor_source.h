// The desktop's pointer image, platform-neutral: a source reports each new
// cursor shape; viewers draw it themselves, so it is never in the video.
// The X11 implementation (XFixes) lives in input/x11.
//
// Threads: created and used on the loop thread; the listener is called there.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace voxl::input {

struct CursorImage {
  uint64_t serial = 0;  // the same shape keeps its serial
  int width = 0;
  int height = 0;
  int hot_x = 0;
  int hot_y = 0;
  // width * height pixels, straight (not premultiplied) RGBA, row-major.
  std::vector<uint8_t> rgba;
  // The shape's name where the platform gives one (X11: "left_ptr",
  // "xterm", "hand2"...); empty otherwise. Printable ASCII, short.
  std::string name;
  // Every pixel transparent: the application hid the pointer.
  bool hidden() const;
};

using CursorImagePtr = std::shared_ptr<const CursorImage>;

class CursorSource {
 public:
  virtual ~CursorSource() = default;
  // Called with the new image whenever the shape changes.
  virtual void set_listener(std::function<void(const CursorImagePtr&)> listener) = 0;
  // The shape now; null before the first one is known.
  virtual CursorImagePtr current() const = 0;
  // Called once, on the loop, when the source lost the desktop for good
  // (the X server went away); a RecoveringCursorSource makes a new one.
  // Sources that cannot lose it never call it.
  virtual void set_lost_handler(std::function<void()> on_lost) = 0;
};

}  // namespace voxl::input
