// The headers of a file download, decided without any socket: which part
// of the file a Range header asks for (RFC 9110 section 14), and a
// Content-Disposition that carries any Unicode name (RFC 6266 with the
// RFC 8187 filename* form beside a plain ASCII fallback). Pure; any
// thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace voxl::files {

struct RangeChoice {
  enum class Kind {
    kWhole,          // no usable Range: the whole file, 200
    kPart,           // one satisfiable range: 206 with Content-Range
    kUnsatisfiable,  // 416 with Content-Range: bytes */size
  };
  Kind kind = Kind::kWhole;
  uint64_t first = 0;   // with kPart: the first byte
  uint64_t length = 0;  // with kPart: how many bytes (at least 1)
};

// `range` is the Range header (nullopt when absent), `if_range` the
// If-Range header, `etag` the file's current entity tag (quoted). A Range
// that is not "bytes=" with exactly one well-formed range, or whose
// If-Range does not name the current tag, is ignored (the whole file):
// what RFC 9110 allows, and what every browser handles.
RangeChoice choose_range(std::optional<std::string_view> range, std::optional<std::string_view> if_range,
                         std::string_view etag, uint64_t size);

// "bytes 0-99/1234" for a part.
std::string content_range(const RangeChoice& part, uint64_t size);

// attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf
// The fallback replaces every byte that is not printable ASCII (and '"',
// '\', '%', ';') with '_'.
std::string attachment_disposition(std::string_view utf8_name);

}  // namespace voxl::files
