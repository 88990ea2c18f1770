// --stripes: the screen cut into N horizontal bands, each coded as its own
// H.264 stream. Every band but the last is a whole number of 16-pixel
// macroblock rows (so no band's encoder pads rows that belong to the next),
// the bands are as even as that allows, and the last takes what is left
// (any even height: the coded picture's height is even). A picture too
// short for N bands of at least kMinBandRows macroblock rows gets fewer.
//
// Pure logic; any thread.
#pragma once

#include <vector>

#include "base/geometry.h"

namespace voxl::encode {

constexpr int kMacroblock = 16;
constexpr int kMinBandRows = 2;  // 32 pixels: smaller bands cost more in headers than they save
constexpr int kMaxStripes = 16;

// The bands of a picture of `size` (even width and height) for `stripes`
// (clamped to 1..kMaxStripes), top to bottom, each as wide as the picture.
std::vector<Rect> stripe_bands(Size size, int stripes);

// Which bands `damage` touches (rects in picture coordinates), in order.
std::vector<int> damaged_bands(const std::vector<Rect>& bands, const std::vector<Rect>& damage);

}  // namespace voxl::encode
