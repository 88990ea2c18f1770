#include "bench_options.h"

#include <charconv>

#include <CLI/CLI.hpp>

namespace voxl::bench {

namespace {

bool parse_side(const char* first, const char* last, int& out) {
  const auto [end, ec] = std::from_chars(first, last, out);
  return ec == std::errc{} && end == last && out >= kMinSide && out <= kMaxSide;
}

// Rejects anything parse_size() would not accept, with a message naming it.
CLI::Validator size_validator() {
  return CLI::Validator(
      [](std::string& text) {
        return parse_size(text) ? std::string{}
                                : "'" + text + "' is not a size like 1920x1080 (each side " +
                                      std::to_string(kMinSide) + " to " +
                                      std::to_string(kMaxSide) + ")";
      },
      "WxH");
}

std::string join_sizes(const std::vector<Size>& sizes) {
  std::string out;
  for (const Size& s : sizes) out += (out.empty() ? "" : ",") + to_string(s);
  return out;
}

}  // namespace

std::optional<Size> parse_size(const std::string& text) {
  const size_t x = text.find('x');
  if (x == std::string::npos) return std::nullopt;
  Size s;
  const char* begin = text.data();
  if (!parse_side(begin, begin + x, s.width) ||
      !parse_side(begin + x + 1, begin + text.size(), s.height))
    return std::nullopt;
  return s;
}

std::string to_string(Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

ParsedOptions parse_options(int argc, char** argv) {
  BenchOptions o;
  CLI::App cli{
      "voxl-capture-bench: times the X11 capturer's pixel sources (GetImage, ShmGetImage, "
      "Xvfb framebuffer) on screen regions at the top-left corner of one screen.\n"
      "Exit status: 0 when every check passed, 1 when a check failed (pixels differ between "
      "sources, a source was not the one expected, a capturer fell back), 2 when the benchmark "
      "could not run, 130 when interrupted."};
  std::vector<std::string> size_texts;
  std::string screen_text = to_string(o.screen);
  cli.add_flag("--json", o.json, "print JSON instead of a markdown table");
  cli.add_option("--sizes", size_texts, "comma-separated capture sizes")
      ->delimiter(',')
      ->check(size_validator())
      ->default_str(join_sizes(o.sizes));
  cli.add_option("--warmup", o.warmup, "untimed grabs before each measurement")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cli.add_option("--iterations", o.iterations, "timed grabs per measurement")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  auto* display = cli.add_option(
      "--display", o.display,
      "use this existing X display instead of starting a private Xvfb (the Xvfb framebuffer "
      "source is then measured only when that display offers it)");
  cli.add_option("--screen", screen_text, "size of the private Xvfb")
      ->check(size_validator())
      ->capture_default_str()
      ->excludes(display);
  cli.add_option("--log-level", o.log_level, "capturer log level")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
      ->capture_default_str();
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help exits 0; CLI11's own codes for bad flags become our "could not run".
    const int code = cli.exit(e);
    return {std::nullopt, code == 0 ? 0 : 2};
  }
  // The validators above guarantee these parse.
  if (!size_texts.empty()) {
    o.sizes.clear();
    for (const std::string& t : size_texts) o.sizes.push_back(*parse_size(t));
  }
  o.screen = *parse_size(screen_text);
  return {o, 0};
}

}  // namespace voxl::bench
