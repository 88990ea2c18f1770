#include "stream/viewer_settings.h"

#include <algorithm>
#include <cstdint>

#include "base/json_fields.h"

namespace voxl::stream {

namespace {

// The code point at `s[i]`, advancing `i`; -1 for a malformed or overlong
// sequence, a surrogate or a value past U+10FFFF.
int32_t next_code_point(std::string_view s, size_t& i) {
  const auto byte = [&](size_t k) { return uint8_t(s[k]); };
  const uint8_t b0 = byte(i);
  int len = 0;
  int32_t cp = 0;
  if (b0 < 0x80) {
    ++i;
    return b0;
  } else if ((b0 & 0xe0) == 0xc0) {
    len = 2;
    cp = b0 & 0x1f;
  } else if ((b0 & 0xf0) == 0xe0) {
    len = 3;
    cp = b0 & 0x0f;
  } else if ((b0 & 0xf8) == 0xf0) {
    len = 4;
    cp = b0 & 0x07;
  } else {
    return -1;
  }
  if (i + size_t(len) > s.size()) return -1;
  for (int k = 1; k < len; ++k) {
    const uint8_t b = byte(i + size_t(k));
    if ((b & 0xc0) != 0x80) return -1;
    cp = (cp << 6) | (b & 0x3f);
  }
  static constexpr int32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kLeast[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
  i += size_t(len);
  return cp;
}

bool is_control(int32_t cp) { return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029; }

}  // namespace

bool valid_viewer_name(std::string_view name) {
  size_t chars = 0;
  for (size_t i = 0; i < name.size();) {
    const int32_t cp = next_code_point(name, i);
    if (cp < 0 || is_control(cp)) return false;
    if (++chars > ViewerSettings::kMaxNameChars) return false;
  }
  return true;
}

bool read_settings(JsonFields& f, ViewerSettings& settings, const char*& bad) {
  bad = nullptr;
  const auto fps = f.integer("max_fps", 0, ViewerSettings::kMaxFps);
  const auto kbps = f.integer("max_kbps", 0, ViewerSettings::kMaxKbps);
  // UTF-8 takes at most 4 bytes a character.
  const auto name = f.string("name", ViewerSettings::kMaxNameChars * 4);
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
