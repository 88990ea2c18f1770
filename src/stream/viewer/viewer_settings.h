// What one viewer may set for itself ({"type":"settings"}, wire_format.h):
// a frame rate cap, a bitrate cap, a display name and a motion choice
// (stream/video/motion_choice.h, combined by combined_motion), the checks a
// viewer's values go through, and the rules that combine the caps of
// several viewers sharing the one encode:
// - a frame rate cap of any viewer, full or view-only, only counts towards
//   the stream's ceiling: the highest any viewer or consumer allows (a
//   viewer without a cap, or a running recording, allows the server's
//   --framerate maximum), so one viewer's cap never slows another's
//   picture; nothing is thinned per viewer;
// - a full viewer's bitrate cap is its own link limit: its target is the
//   lower of its link estimate and its cap (the encoder follows the slowest
//   full viewer, as with a slow link);
// - a view-only viewer's bitrate cap is not applied (its link never lowers
//   the shared encode; it skips frames instead): it is answered as 0.
// Global settings (--framerate, --max-kbps, ...) are flags; no viewer
// changes them.
//
// Pure logic and data; any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "stream/video/motion_choice.h"

namespace voxl {
class JsonFields;
}

namespace voxl::stream {

struct ViewerSettings {
  int max_fps = 0;   // 0: no cap
  int max_kbps = 0;  // 0: no cap
  std::string name;  // shown in the viewer list; may be empty
  std::optional<Motion> motion;  // none: the server's --motion

  static constexpr int kMaxFps = 240;
  static constexpr int kMinKbps = 100;
  static constexpr int kMaxKbps = 1000000;
  static constexpr size_t kMaxNameChars = 40;
};

// Reads a settings message's fields into `settings`, each only when
// present. False (and `settings` unchanged) when a field is unusable: not
// an integer of its range (max_fps 0 or 1..240, max_kbps 0 or
// 100..1000000), a name that is not UTF-8, longer than 40 characters or
// holds a control character, or a motion other than "auto", "smooth" or
// "sharp"; `f.bad_field()` or `bad` then names it.
bool read_settings(JsonFields& f, ViewerSettings& settings, const char*& bad);

// Whether `name` is a name a viewer may take (see read_settings).
bool valid_viewer_name(std::string_view name);

// The stream's frame rate ceiling: the highest of `caps` (0 = no cap,
// which counts as `server_max`), never above `server_max`; `server_max`
// with no caps at all.
int combined_max_fps(std::span<const int> caps, int server_max);

// A full viewer's bitrate target: its link estimate (0 = not measured)
// under its cap (0 = no cap). 0 only when neither says anything.
int capped_target_kbps(int estimate_kbps, int cap_kbps);

}  // namespace voxl::stream
