// Command-line settings. Parsed once at start-up on the main thread, then
// read-only.
#pragma once

#include <optional>
#include <string>

#include "base/geometry.h"

namespace voxl::app {

struct Config {
  std::string display;               // empty: $DISPLAY, or a private Xvfb when unset
  std::optional<Size> xvfb;          // start a private Xvfb of this size
  std::optional<Rect> capture_region;
  uint32_t capture_window = 0;
  int framerate = 60;
  int stats_seconds = 5;
  std::string log_level = "info";
};

// Parses argv. On --help or --version prints and returns `exit_code` 0; on a
// bad value prints a message naming the flag and returns exit_code 2.
struct ParseOutcome {
  std::optional<Config> config;
  int exit_code = 0;
};
ParseOutcome parse_command_line(int argc, char** argv);

// "1920x1080" -> Size; nullopt unless both are positive.
std::optional<Size> parse_size(const std::string& text);

}  // namespace voxl::app
