#include "files/download_headers.h"
#include "net/http_tokens.h"

#include <charconv>

namespace voxl::files {

namespace {

// Digits only (no sign, no spaces); nullopt when empty, malformed or too big.
std::optional<uint64_t> number(std::string_view s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

RangeChoice choose_range(std::optional<std::string_view> range, std::optional<std::string_view> if_range,
                         std::string_view etag, uint64_t size) {
  RangeChoice whole;
  if (!range) return whole;
  // If-Range with a date is not honoured (only the tag is exact): whole.
  if (if_range && net::trim_ows(*if_range) != etag) return whole;
  std::string_view spec = net::trim_ows(*range);
  if (!spec.starts_with("bytes=")) return whole;
  spec = net::trim_ows(spec.substr(6));
  if (spec.find(',') != std::string_view::npos) return whole;  // several ranges: the whole file instead
  const size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return whole;
  const std::string_view a = net::trim_ows(spec.substr(0, dash));
  const std::string_view b = net::trim_ows(spec.substr(dash + 1));
  RangeChoice out;
  out.kind = RangeChoice::Kind::kPart;
  if (a.empty()) {
    // "-n": the last n bytes.
    const auto n = number(b);
    if (!n) return whole;
    if (*n == 0 || size == 0) return {RangeChoice::Kind::kUnsatisfiable, 0, 0};
    out.length = std::min(*n, size);
    out.first = size - out.length;
    return out;
  }
  const auto first = number(a);
  if (!first) return whole;
  std::optional<uint64_t> last;
  if (!b.empty()) {
    last = number(b);
    if (!last || *last < *first) return whole;  // invalid: ignored
  }
  if (*first >= size) return {RangeChoice::Kind::kUnsatisfiable, 0, 0};
  const uint64_t end = last ? std::min(*last, size - 1) : size - 1;
  out.first = *first;
  out.length = end - *first + 1;
  return out;
}

std::string content_range(const RangeChoice& part, uint64_t size) {
  if (part.kind == RangeChoice::Kind::kUnsatisfiable) return "bytes */" + std::to_string(size);
  return "bytes " + std::to_string(part.first) + "-" + std::to_string(part.first + part.length - 1) + "/" +
         std::to_string(size);
}

std::string attachment_disposition(std::string_view utf8_name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string fallback;
  std::string encoded;
  for (const char ch : utf8_name) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = c >= 0x20 && c < 0x7F && c != '"' && c != '\\' && c != '%' && c != ';';
    // Fallback: one '_' per UTF-8 sequence, not per byte.
    if (plain) fallback += char(c);
    else if ((c & 0xC0) != 0x80) fallback += '_';
    // RFC 8187 attr-char: ALPHA / DIGIT / "!#$&+-.^_`|~"
    const bool attr = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string_view("!#$&+-.^_`|~").find(char(c)) != std::string_view::npos;
    if (attr) {
      encoded += char(c);
    } else {
      encoded += '%';
      encoded += kHex[c >> 4];
      encoded += kHex[c & 15];
    }
  }
  if (fallback.empty()) fallback = "download";
  return "attachment; filename=\"" + fallback + "\"; filename*=UTF-8''" + encoded;
}

}  // namespace voxl::files
