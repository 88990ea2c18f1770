// The download headers (files/download_headers.h): a Range and If-Range
// from the client pick a part that lies within the file or nothing, and a
// Content-Disposition made from any name stays one header value (no quote
// or control byte escapes the quoted fallback, the filename* part is pure
// attr-chars and percent escapes).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>

#include "fuzz_target.h"
#include "files/download_headers.h"
#include "fuzz_check.h"

VOXL_FUZZ_TARGET(download_headers) {
  using namespace voxl::files;
  FuzzedDataProvider in(data, size);
  const uint64_t file_size = in.ConsumeBool() ? in.ConsumeIntegralInRange<uint64_t>(0, 4096) : in.ConsumeIntegral<uint64_t>();
  const std::string range = in.ConsumeRandomLengthString(64);
  const bool with_if_range = in.ConsumeBool();
  const std::string if_range = in.ConsumeRandomLengthString(16);
  const std::string name = in.ConsumeRemainingBytesAsString();

  const RangeChoice c = choose_range(range, with_if_range ? std::optional<std::string_view>(if_range) : std::nullopt,
                                     "\"tag\"", file_size);
  if (c.kind == RangeChoice::Kind::kPart) {
    FUZZ_CHECK(c.length >= 1);
    FUZZ_CHECK(c.first < file_size);
    FUZZ_CHECK(c.length <= file_size - c.first);
    FUZZ_CHECK(content_range(c, file_size).starts_with("bytes " + std::to_string(c.first) + "-"));
  }
  if (c.kind == RangeChoice::Kind::kUnsatisfiable) FUZZ_CHECK(content_range(c, file_size) == "bytes */" + std::to_string(file_size));

  const std::string d = attachment_disposition(name);
  const std::string head = "attachment; filename=\"";
  FUZZ_CHECK(d.starts_with(head));
  const size_t close = d.find('"', head.size());
  FUZZ_CHECK(close != std::string::npos);
  const std::string tail = d.substr(close);
  FUZZ_CHECK(tail.starts_with("\"; filename*=UTF-8''"));
  for (const char ch : d) {
    const auto u = static_cast<unsigned char>(ch);
    FUZZ_CHECK(u >= 0x20 && u < 0x7F);
  }
  FUZZ_CHECK(tail.find('"', 1) == std::string::npos && tail.find(' ', 3) == std::string::npos);
  return 0;
}
