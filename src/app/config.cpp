#include "app/config.h"

#include <charconv>
#include <iostream>

#include <CLI/CLI.hpp>

namespace voxl::app {

std::optional<Size> parse_size(const std::string& text) {
  const size_t x = text.find('x');
  if (x == std::string::npos) return std::nullopt;
  Size s;
  auto a = std::from_chars(text.data(), text.data() + x, s.width);
  auto b = std::from_chars(text.data() + x + 1, text.data() + text.size(), s.height);
  if (a.ec != std::errc{} || a.ptr != text.data() + x || b.ec != std::errc{} ||
      b.ptr != text.data() + text.size() || s.width <= 0 || s.height <= 0 || s.width > 16384 ||
      s.height > 16384)
    return std::nullopt;
  return s;
}

ParseOutcome parse_command_line(int argc, char** argv) {
  CLI::App cli{"voxl: low-latency desktop streaming to the browser"};
  cli.set_version_flag("--version", "voxl 0.1.0");
  Config c;
  std::string xvfb, region, window;
  cli.add_option("--display", c.display, "X display to capture (default: $DISPLAY)");
  cli.add_option("--xvfb", xvfb,
                 "start a private Xvfb of this size (WxH) instead of using $DISPLAY; "
                 "also the default when DISPLAY is unset (1920x1080)")
      ->expected(0, 1)
      ->default_str("1920x1080");
  cli.add_option("--capture-region", region, "capture only this rectangle: x,y,w,h");
  cli.add_option("--capture-window", window, "capture one window by id (decimal or 0x hex)");
  cli.add_option("--framerate", c.framerate, "highest frames per second")
      ->check(CLI::Range(1, 240));
  cli.add_option("--stats-seconds", c.stats_seconds, "seconds between capture statistics lines")
      ->check(CLI::Range(1, 3600));
  cli.add_option("--log-level", c.log_level, "trace, debug, info, warn or error")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return {std::nullopt, cli.exit(e)};
  }
  auto fail = [](const std::string& msg) {
    std::cerr << "voxl: " << msg << "\n";
    return ParseOutcome{std::nullopt, 2};
  };
  if (cli.count("--xvfb")) {
    const std::string v = xvfb.empty() ? "1920x1080" : xvfb;
    c.xvfb = parse_size(v);
    if (!c.xvfb) return fail("--xvfb: '" + v + "' is not a size like 1920x1080");
    if (!c.display.empty()) return fail("--xvfb and --display exclude each other");
  }
  if (!region.empty()) {
    c.capture_region = parse_rect(region);
    if (!c.capture_region) return fail("--capture-region: '" + region + "' is not x,y,w,h with w,h > 0");
  }
  if (!window.empty()) {
    try {
      size_t used = 0;
      const unsigned long v = std::stoul(window, &used, 0);
      if (used != window.size() || v == 0 || v > 0xffffffffUL) throw std::invalid_argument(window);
      c.capture_window = uint32_t(v);
    } catch (const std::exception&) {
      return fail("--capture-window: '" + window + "' is not a window id");
    }
    if (c.capture_region) return fail("--capture-region and --capture-window exclude each other");
  }
  return {c, 0};
}

}  // namespace voxl::app
