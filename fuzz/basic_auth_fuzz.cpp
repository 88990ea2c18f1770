// libFuzzer target: the Authorization header through parse_basic_auth and
// parse_bearer, and base64 (the one decoder voxl has) both ways: whatever
// decodes re-encodes to the same text, and every byte string round-trips.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/base64.h"
#include "net/access_policy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);

  if (const auto creds = voxl::net::parse_basic_auth(in)) {
    // What was accepted had a colon, so user and password joined by one
    // must encode to a decodable form again.
    const std::string joined = creds->first + ":" + creds->second;
    const auto again = voxl::net::parse_basic_auth("Basic " + voxl::base64_encode(joined));
    if (!again || *again != *creds) std::abort();
  }
  (void)voxl::net::parse_bearer(in);

  if (const auto decoded = voxl::base64_decode(in)) {
    // Canonical input only: padding bits may be non-zero in `in`, so
    // compare by decoding the re-encoded text rather than by text.
    const auto back = voxl::base64_decode(voxl::base64_encode(*decoded));
    if (!back || *back != *decoded) std::abort();
  }
  const auto round = voxl::base64_decode(voxl::base64_encode(in));
  if (!round || *round != in) std::abort();
  return 0;
}
