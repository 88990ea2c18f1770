// BGRX -> planar YUV 4:4:4, BT.601, limited or full range, with 16-bit
// fixed-point coefficients and rounding. libyuv's ARGBToI444 rounds its
// coefficients to 7 bits, which alone limits an RGB -> YUV -> RGB round
// trip to about 47.7 dB (noise-like content); these rows reach about 52 dB
// in limited and 53 dB in full range, leaving room for the coding loss of
// a still-screen paintover. Pure functions; any thread.
#pragma once

#include <cstdint>

#include "encode/i420_image.h"

namespace voxl::encode {

// Converts `width` x `height` BGRX pixels at `src` (`src_stride` bytes a
// row) into the planes at y/u/v (one chroma sample per pixel).
void bgrx_to_yuv444(const uint8_t* src, int src_stride, uint8_t* y, int stride_y, uint8_t* u, uint8_t* v,
                    int stride_uv, int width, int height, ColourRange range);

}  // namespace voxl::encode
