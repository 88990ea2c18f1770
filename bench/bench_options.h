// Command line of voxl-capture-bench: what to measure and where.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/geometry.h"

namespace voxl::bench {

struct BenchOptions {
  // Capture areas, each placed at the top-left corner of the screen.
  std::vector<Size> sizes{{1280, 720}, {1920, 1080}, {2560, 1440}, {3840, 2160}};
  int warmup = 30;
  int iterations = 300;
  std::string display;        // empty: start a private Xvfb of `screen`
  Size screen{3840, 2160};    // size of that private Xvfb
  bool json = false;
  std::string log_level = "warn";
};

struct ParsedOptions {
  std::optional<BenchOptions> options;  // unset: exit at once with `exit_code`
  int exit_code = 0;
};

// Parses the flags; prints help or the parse error itself.
ParsedOptions parse_options(int argc, char** argv);

// "1920x1080" -> {1920, 1080}; nullopt unless both sides are whole numbers
// from kMinSide to kMaxSide.
inline constexpr int kMinSide = 64;  // the damaged-grab rows need a 64x64 area
inline constexpr int kMaxSide = 16384;
std::optional<Size> parse_size(const std::string& text);

std::string to_string(Size s);  // "1920x1080"

}  // namespace voxl::bench
