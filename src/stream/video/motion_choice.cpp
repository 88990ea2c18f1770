#include "stream/video/motion_choice.h"

namespace voxl::stream {

const char* motion_name(Motion m) {
  switch (m) {
    case Motion::kSmooth:
      return "smooth";
    case Motion::kSharp:
      return "sharp";
    case Motion::kAuto:
      break;
  }
  return "auto";
}

std::optional<Motion> parse_motion(std::string_view text) {
  if (text == "auto") return Motion::kAuto;
  if (text == "smooth") return Motion::kSmooth;
  if (text == "sharp") return Motion::kSharp;
  return std::nullopt;
}

Motion combined_motion(std::span<const std::optional<Motion>> choices, Motion server) {
  std::optional<Motion> agreed;
  for (const auto& c : choices) {
    if (!c) continue;
    if (agreed && *agreed != *c) return server;
    agreed = c;
  }
  return agreed.value_or(server);
}

}  // namespace voxl::stream
