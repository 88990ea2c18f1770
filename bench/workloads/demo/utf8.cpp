#include "utf8.h"

namespace voxl::demo {

namespace {

constexpr char32_t kReplacement = 0xfffd;

// The code point starting at bytes[i], and its length in bytes (at least 1).
char32_t decode_one(std::string_view bytes, size_t i, size_t& length) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(bytes[k]); };
  const unsigned char b = at(i);
  length = 1;
  if (b < 0x80) return b;
  size_t n;
  char32_t c, min;
  if ((b & 0xe0) == 0xc0) n = 2, c = b & 0x1f, min = 0x80;
  else if ((b & 0xf0) == 0xe0) n = 3, c = b & 0x0f, min = 0x800;
  else if ((b & 0xf8) == 0xf0) n = 4, c = b & 0x07, min = 0x10000;
  else return kReplacement;
  if (i + n > bytes.size()) return kReplacement;
  for (size_t k = 1; k < n; ++k) {
    if ((at(i + k) & 0xc0) != 0x80) return kReplacement;
    c = c << 6 | (at(i + k) & 0x3f);
  }
  // Overlong forms, surrogates and values past Unicode's end are invalid.
  if (c < min || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff) return kReplacement;
  length = n;
  return c;
}

}  // namespace

std::u32string utf8_decode(std::string_view bytes, size_t max_chars, bool* complete) {
  std::u32string out;
  size_t i = 0;
  while (i < bytes.size() && out.size() < max_chars) {
    size_t length = 1;
    out.push_back(decode_one(bytes, i, length));
    i += length;
  }
  if (complete) *complete = i >= bytes.size();
  return out;
}

std::u32string latin1_decode(std::string_view bytes, size_t max_chars, bool* complete) {
  const size_t n = bytes.size() < max_chars ? bytes.size() : max_chars;
  std::u32string out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<unsigned char>(bytes[i]));
  if (complete) *complete = n == bytes.size();
  return out;
}

std::string utf8_encode(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    if ((c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff) c = kReplacement;
    if (c < 0x80) {
      out.push_back(char(c));
    } else if (c < 0x800) {
      out.push_back(char(0xc0 | c >> 6));
      out.push_back(char(0x80 | (c & 0x3f)));
    } else if (c < 0x10000) {
      out.push_back(char(0xe0 | c >> 12));
      out.push_back(char(0x80 | (c >> 6 & 0x3f)));
      out.push_back(char(0x80 | (c & 0x3f)));
    } else {
      out.push_back(char(0xf0 | c >> 18));
      out.push_back(char(0x80 | (c >> 12 & 0x3f)));
      out.push_back(char(0x80 | (c >> 6 & 0x3f)));
      out.push_back(char(0x80 | (c & 0x3f)));
    }
  }
  return out;
}

std::string latin1_encode(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) out.push_back(c < 0x100 ? char(c) : '?');
  return out;
}

}  // namespace voxl::demo
