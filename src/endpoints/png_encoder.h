// BGRX pixels (capture::Frame's layout) to PNG, tuned for speed over size:
// libpng with zlib at level 1, the Sub filter and run-length matching,
// which suit desktop content (flat areas, text) and keep a 1080p screen in
// the tens of milliseconds (bench/agent/screenshot_bench.sh measures it).
// Pure; any thread.
#pragma once

#include <cstdint>
#include <string>

#include "base/geometry.h"

namespace voxl::endpoints {

struct PngOptions {
  int level = 1;          // zlib level 0..9
  bool sub_filter = true;  // false: no filter
  bool rle = true;         // zlib's Z_RLE strategy (else the default)
};

// `pixels` points at the top-left pixel of the picture, rows `stride`
// bytes apart. Returns the PNG file, or an empty string (with `error`) on
// failure.
std::string encode_png(const uint8_t* pixels, int stride, Size size, std::string& error,
                       const PngOptions& options = {});

}  // namespace voxl::endpoints
