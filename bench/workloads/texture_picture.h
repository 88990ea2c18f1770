// The "texture" workload's picture: a photo-like image (smooth colour
// gradients, blotches at several scales, fine coloured speckle and thin
// lines) generated from a fixed seed, scrolling up 3 px every frame, with a
// film grain that changes every frame the way a camera's noise does. The
// grain is what makes it heavy: motion compensation predicts the scroll but
// not the grain, so every frame carries fresh detail to code.
//
// Frame `counter` is a pure function of the counter and the screen size:
// the workload draws it, and the benchmark client renders the same picture
// to measure what a viewer decoded against it.
//
// Not thread-safe: one thread at a time. Owns its texture and grain
// (tens of MB at 1080p, generated once in the constructor).
#pragma once

#include <cstdint>
#include <vector>

namespace voxl::bench {

class TexturePicture {
 public:
  static constexpr int kScrollPerFrame = 3;  // pixels the content moves up each frame

  TexturePicture(int width, int height, uint64_t seed = 0x766f786c);

  int width() const { return width_; }
  int height() const { return height_; }
  // Writes frame `counter` as 0x00RRGGBB pixels, `stride` pixels a row
  // (>= width), rows [y0, y1) of the screen.
  void render(uint32_t counter, uint32_t* out, int stride, int y0, int y1) const;
  void render(uint32_t counter, uint32_t* out, int stride) const { render(counter, out, stride, 0, height_); }

 private:
  int width_, height_;
  int period_;                    // texture rows before the scroll wraps
  std::vector<uint32_t> texture_; // width_ x period_, 0x00RRGGBB
  int grain_w_, grain_h_;
  // grain_w_ x grain_h_ pixels, a window of it per frame: what the grain
  // adds to (brighten_) or takes from (darken_) each colour byte, so a
  // frame is two saturating byte operations on the texture.
  std::vector<uint32_t> brighten_, darken_;
};

}  // namespace voxl::bench
