// base64 (voxl::base64_encode/decode, the one decoder) and the
// Authorization parsers built on it (net::parse_basic_auth, parse_bearer).
// Round trips: encoding then decoding gives the bytes back; whatever
// decodes re-encodes to text of the same length that decodes to the same
// bytes; parsed credentials re-encoded parse to the same pair.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "base/base64.h"
#include "fuzz_check.h"
#include "net/access_policy.h"

VOXL_FUZZ_TARGET(base64) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);

  const std::string encoded = voxl::base64_encode(in);
  FUZZ_CHECK(encoded.size() == (size + 2) / 3 * 4);
  const auto back = voxl::base64_decode(encoded);
  FUZZ_CHECK(back && *back == in);

  if (const auto decoded = voxl::base64_decode(in)) {
    FUZZ_CHECK(size % 4 == 0 && decoded->size() <= size / 4 * 3);
    const std::string again = voxl::base64_encode(*decoded);
    FUZZ_CHECK(again.size() == size);
    FUZZ_CHECK(voxl::base64_decode(again) == decoded);
  }

  (void)voxl::net::parse_bearer(in);  // the other Authorization scheme

  if (const auto creds = voxl::net::parse_basic_auth(in)) {
    FUZZ_CHECK(creds->first.find(':') == std::string::npos);
    const std::string header = "Basic " + voxl::base64_encode(creds->first + ":" + creds->second);
    FUZZ_CHECK(voxl::net::parse_basic_auth(header) == creds);
  }
  // The same bytes as a credential pair, the way a client sends them.
  const std::string header = "Basic " + encoded;
  const auto creds = voxl::net::parse_basic_auth(header);
  const size_t colon = in.find(':');
  FUZZ_CHECK(creds.has_value() == (colon != std::string_view::npos));
  if (creds) FUZZ_CHECK(creds->first == in.substr(0, colon) && creds->second == in.substr(colon + 1));
  return 0;
}
