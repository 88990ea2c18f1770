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

// How a bitrate ceiling of `total_kbps` is shared by the stripes coded in
// one frame: `demand[i]` is what stripe i has been taking (bytes per coded
// frame, smoothed; 0 when unknown), `coded[i]` whether it codes now. A
// stripe that does not code gets 0 (its encoder keeps its last share); the
// coded ones split the whole ceiling in proportion to their demand plus a
// floor (a quiet stripe that starts moving is not starved while its demand
// catches up), each at least kMinStripeKbps. Since only the coded stripes
// send, together they spend what one encoder of the whole picture would.
constexpr int kMinStripeKbps = 64;
std::vector<int> stripe_kbps(int total_kbps, const std::vector<double>& demand, const std::vector<bool>& coded);

}  // namespace voxl::encode
