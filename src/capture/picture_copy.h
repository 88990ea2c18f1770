// Copies parts of a 32-bit picture that lives elsewhere (a compositor's
// shared memory, a PipeWire buffer) into a frame: pixels in memory order
// B,G,R,X, or R,G,B,X with red and blue swapped on the way, rows top-down or
// bottom-up. Pure; any thread.
#pragma once

#include <cstdint>

#include "base/block_map.h"
#include "base/geometry.h"
#include "capture/frame.h"

namespace voxl::capture {

struct PictureView {
  const uint8_t* data = nullptr;
  int stride = 0;  // bytes a row, at least size.width * 4
  Size size;       // the frame's size
  bool red_first = false;  // R,G,B,X in memory
  bool bottom_up = false;  // the first row in memory is the picture's last
};

// The part `region` of `whole` (in the picture's own top-down coordinates,
// lying on it) as a picture of its own: what --capture-region streams of a
// compositor's whole output.
PictureView crop(const PictureView& whole, const Rect& region);

// Copies `blocks` (clipped to the picture) from `from` into `frame`.
void copy_into_frame(const PictureView& from, const BlockMap& blocks, Frame& frame);

}  // namespace voxl::capture
