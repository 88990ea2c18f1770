// The viewers' decoded pictures as picture_quality.h's PictureView.
//
// Pure functions; any thread. A view borrows the picture's memory.
#pragma once

#include "h264_decoder.h"
#include "picture_quality.h"

namespace voxl::bench {

// A decoded YUV picture; its chroma planes' size says 4:2:0 or 4:4:4.
inline PictureView view_of(const testing::Picture& p) {
  PictureView v;
  v.width = p.width;
  v.height = p.height;
  v.y = p.y.data();
  v.u = p.u.data();
  v.v = p.v.data();
  const bool full = p.u.size() >= size_t(p.width) * size_t(p.height);
  v.chroma_width = full ? p.width : (p.width + 1) / 2;
  v.chroma_height = full ? p.height : (p.height + 1) / 2;
  return v;
}

// A framebuffer of R, G, B, pad bytes.
inline PictureView view_of_rgbx(const uint8_t* fb, int width, int height) {
  PictureView v;
  v.width = width;
  v.height = height;
  v.rgbx = fb;
  return v;
}

}  // namespace voxl::bench
