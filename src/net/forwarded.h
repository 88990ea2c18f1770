// Reverse proxies: which peers may say, in X-Forwarded-Proto, -Host and
// -For, what the browser asked for and from where (--trusted-proxies), and
// what a request then counts as. A header from any other peer is ignored,
// since anyone could send it. Pure functions; any thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace voxl::net {

// An address range: IPv4 is held as its IPv4-mapped IPv6 form, so one
// comparison covers both families.
struct AddressRange {
  std::array<uint8_t, 16> bytes{};
  int prefix = 128;  // leading bits that must match
};

// Parses "ADDR[/BITS],..." (IPv4 or IPv6, e.g. "127.0.0.1,10.0.0.0/8,::1").
// A range with bits set past its prefix is refused as a likely mistake.
// nullopt for any bad item; an empty list is refused too.
std::optional<std::vector<AddressRange>> parse_address_ranges(std::string_view text);

// True when `address` (as the socket reports it, e.g. "10.1.2.3", "::1" or
// "::ffff:10.1.2.3") lies in one of the ranges.
bool address_in(const std::vector<AddressRange>& ranges, std::string_view address);

// The forwarding headers of one request, as received (absent: nullopt).
struct ForwardedHeaders {
  std::optional<std::string_view> proto;  // X-Forwarded-Proto
  std::optional<std::string_view> host;   // X-Forwarded-Host
  std::optional<std::string_view> for_;   // X-Forwarded-For
};

// What a request counts as: the scheme and Host the browser used, and the
// client's address.
struct RequestOrigin {
  bool tls = false;
  std::string host;
  std::string remote;
  bool forwarded = false;  // the headers of a trusted proxy were used
};

// From a peer in `trusted`, the headers replace what the connection says:
// the first X-Forwarded-Proto item ("https" or "http"), the first
// X-Forwarded-Host item, and the last X-Forwarded-For address that is not
// itself a trusted proxy (the nearest client the proxies vouch for). A
// header that is malformed is ignored and the connection's own value kept.
RequestOrigin resolve_origin(const std::vector<AddressRange>& trusted, std::string_view peer, bool tls,
                             std::string_view host, const ForwardedHeaders& headers);

}  // namespace voxl::net
