// The animation and full-screen animation workloads' picture as a model:
// what is drawn for frame `counter`, as solid-colour rectangles, so the
// workload draws it and the benchmark client renders the very same picture
// to measure a viewer against.
//
// The picture: a background with a 64 px grid (drawn once), and in the
// moving area 4 px stripes stepping through a hue gradient and ten bouncing
// squares, all redrawn every frame. The squares' positions after N frames
// are found by stepping them N times from their start, so frames are a pure
// function of the counter; stepping forward one frame at a time is O(1).
//
// Not thread-safe: one thread at a time. Owns plain values only.
#pragma once

#include <cstdint>
#include <vector>

#include "box_painter.h"

namespace voxl::bench {

struct Fill {
  std::vector<Box> boxes;
  uint32_t rgb;  // 0x00RRGGBB
};

class ScenePicture {
 public:
  static constexpr uint32_t kBackground = 0x303438;
  static constexpr uint32_t kGrid = 0x50565c;

  // `fullscreen`: the moving area is the whole screen; otherwise a centred
  // two thirds of it.
  ScenePicture(int width, int height, bool fullscreen);

  // Where frame_fills() draw: the whole screen, or the centred two thirds.
  const Box& moving_area() const { return area_; }
  // What is drawn once, before the first frame.
  std::vector<Fill> still_fills() const;
  // What is drawn for frame `counter` (>= 1), in order.
  std::vector<Fill> frame_fills(uint32_t counter);
  // The whole frame `counter` as 0x00RRGGBB pixels, width x height.
  void render(uint32_t counter, uint32_t* out);

 private:
  struct Square {
    int x, y, dx, dy, side;
    uint32_t rgb;
  };
  void step_to(uint32_t counter);

  int width_, height_;
  Box area_;
  std::vector<Square> start_, squares_;
  uint32_t stepped_ = 0;  // frames squares_ has been stepped through
};

// Fills `boxes` of a width x height frame, clipped to it.
void fill_pixels(uint32_t* out, int width, int height, const Fill& fill);

}  // namespace voxl::bench
