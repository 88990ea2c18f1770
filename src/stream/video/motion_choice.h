// How the frame rate is traded against sharpness when the link cannot carry
// both (FrameRateGovernor):
// - kSharp: fewer, sharper frames (right for text, code, a document):
//   motion frames aim 6 steps finer than --crf (never finer than the
//   paintover's) and the rate drops as far as the link needs for them;
// - kSmooth: the full frame rate, each frame as sharp as the link allows
//   (right for a video, a game or a 3D view);
// - kAuto: judged from the content (MotionJudge): smooth while a large part
//   of the picture keeps moving, sharp otherwise.
// The server's --motion is the default; a viewer may choose for the stream
// ({"type":"settings","motion":...}); combined_motion says which holds
// when viewers differ.
//
// Pure data and functions; any thread.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace voxl::stream {

enum class Motion { kAuto, kSmooth, kSharp };

// "auto", "smooth" or "sharp".
const char* motion_name(Motion m);
// The inverse of motion_name; nullopt for anything else.
std::optional<Motion> parse_motion(std::string_view text);

// The choice that holds for a stream shared by viewers: the one every
// viewer that chose agrees on; the server's when none chose or they
// disagree (no viewer's choice overrides another's).
Motion combined_motion(std::span<const std::optional<Motion>> choices, Motion server);

}  // namespace voxl::stream
