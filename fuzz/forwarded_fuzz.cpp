// libFuzzer target: --trusted-proxies lists and the forwarding headers. The
// input is split at NUL bytes into the range list, the peer address,
// X-Forwarded-Proto, -Host and -For; the first byte says which headers are
// present and whether the connection is TLS. Checks that an untrusted peer
// never changes anything, that a parsed list writes prefixes within range,
// and that the client named is the peer or an address from X-Forwarded-For.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "net/forwarded.h"

VOXL_FUZZ_TARGET(forwarded) {
  using namespace voxl::net;
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  const auto f = voxl::fuzz::split_nul(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1), 5);

  const auto ranges = parse_address_ranges(f[0]);
  if (ranges) {
    FUZZ_CHECK(!ranges->empty());
    for (const AddressRange& r : *ranges) FUZZ_CHECK(r.prefix >= 0 && r.prefix <= 128);
  }
  const std::vector<AddressRange> trusted = ranges.value_or(std::vector<AddressRange>{});
  ForwardedHeaders h;
  if (flags & 1) h.proto = f[2];
  if (flags & 2) h.host = f[3];
  if (flags & 4) h.for_ = f[4];
  const bool tls = flags & 8;
  const std::string_view host = "voxl.example:6901";
  const RequestOrigin o = resolve_origin(trusted, f[1], tls, host, h);
  if (!address_in(trusted, f[1])) {
    FUZZ_CHECK(!o.forwarded && o.tls == tls && o.host == host && o.remote == f[1]);
    return 0;
  }
  if (o.remote != f[1]) FUZZ_CHECK(h.for_ && h.for_->find(o.remote) != std::string_view::npos);
  if (o.host != host) FUZZ_CHECK(h.host && h.host->find(o.host) != std::string_view::npos && !o.host.empty());
  return 0;
}
