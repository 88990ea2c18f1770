#include "base/utf8.h"

#include <cstdint>

namespace voxl {

std::optional<std::u32string> decode_utf8(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto b = uint8_t(s[i]);
    int extra;
    char32_t cp;
    if (b < 0x80) {
      extra = 0;
      cp = b;
    } else if ((b & 0xe0) == 0xc0) {
      extra = 1;
      cp = b & 0x1f;
    } else if ((b & 0xf0) == 0xe0) {
      extra = 2;
      cp = b & 0x0f;
    } else if ((b & 0xf8) == 0xf0) {
      extra = 3;
      cp = b & 0x07;
    } else {
      return std::nullopt;
    }
    if (extra > 0 && i + size_t(extra) >= s.size()) return std::nullopt;  // truncated
    for (int k = 1; k <= extra; ++k) {
      const auto c = uint8_t(s[i + size_t(k)]);
      if ((c & 0xc0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms and surrogates are malformed.
    static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return std::nullopt;
    out.push_back(cp);
    i += size_t(extra) + 1;
  }
  return out;
}

}  // namespace voxl
