#include "stream/viewer/viewer_settings.h"

#include <algorithm>

#include "base/json_fields.h"
#include "base/utf8.h"
#include "input/key_mapping.h"

namespace voxl::stream {

namespace {

bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029; }

}  // namespace

bool valid_viewer_name(std::string_view name) {
  const auto cps = decode_utf8(name);
  return cps && cps->size() <= ViewerSettings::kMaxNameChars && std::none_of(cps->begin(), cps->end(), is_control);
}

bool read_settings(JsonFields& f, ViewerSettings& settings, const char*& bad) {
  bad = nullptr;
  const auto fps = f.integer("max_fps", 0, ViewerSettings::kMaxFps);
  const auto kbps = f.integer("max_kbps", 0, ViewerSettings::kMaxKbps);
  // UTF-8 takes at most 4 bytes a character.
  const auto name = f.string("name", ViewerSettings::kMaxNameChars * 4);
  const auto motion_text = f.string("motion", 8);
  if (!f.ok()) {
    bad = f.bad_field();
    return false;
  }
  if (kbps && *kbps != 0 && *kbps < ViewerSettings::kMinKbps) {
    bad = "max_kbps";
    return false;
  }
  if (name && !valid_viewer_name(*name)) {
    bad = "name";
    return false;
  }
  const std::optional<Motion> motion = motion_text ? parse_motion(*motion_text) : std::nullopt;
  if (motion_text && !motion) {
    bad = "motion";
    return false;
  }
  if (motion) settings.motion = motion;
  if (fps) settings.max_fps = int(*fps);
  if (kbps) settings.max_kbps = int(*kbps);
  if (name) settings.name = std::string(*name);
  return true;
}

int combined_max_fps(std::span<const int> caps, int server_max) {
  if (caps.empty()) return server_max;
  int best = 0;
  for (const int c : caps) best = std::max(best, c <= 0 ? server_max : std::min(c, server_max));
  return std::max(1, best);
}

int capped_target_kbps(int estimate_kbps, int cap_kbps) {
  if (cap_kbps <= 0) return estimate_kbps;
  if (estimate_kbps <= 0) return cap_kbps;
  return std::min(estimate_kbps, cap_kbps);
}

}  // namespace voxl::stream
