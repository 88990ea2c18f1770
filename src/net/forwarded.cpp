#include "net/forwarded.h"
#include "net/http_tokens.h"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <charconv>

namespace voxl::net {

namespace {

namespace ip = boost::asio::ip;

constexpr size_t kMaxHostLength = 255;

std::optional<std::array<uint8_t, 16>> address_bytes(std::string_view text) {
  boost::system::error_code ec;
  const ip::address a = ip::make_address(std::string(text), ec);
  if (ec) return std::nullopt;
  if (a.is_v6()) {
    const ip::address_v6 v6 = a.to_v6();
    // A scoped address (fe80::1%eth0) names an interface, not a range.
    if (v6.scope_id() != 0) return std::nullopt;
    return v6.to_bytes();
  }
  return ip::make_address_v6(ip::v4_mapped, a.to_v4()).to_bytes();
}

bool bits_past_prefix_clear(const std::array<uint8_t, 16>& b, int prefix) {
  for (int bit = prefix; bit < 128; ++bit)
    if (b[bit / 8] & (0x80 >> (bit % 8))) return false;
  return true;
}

std::optional<AddressRange> parse_range(std::string_view item) {
  item = trim_ows(item);
  const size_t slash = item.find('/');
  const auto bytes = address_bytes(item.substr(0, slash));
  if (!bytes) return std::nullopt;
  const bool v4 = item.substr(0, slash).find(':') == std::string_view::npos;
  AddressRange r{*bytes, 128};
  if (slash != std::string_view::npos) {
    const std::string_view bits = item.substr(slash + 1);
    int n = -1;
    const auto res = std::from_chars(bits.data(), bits.data() + bits.size(), n);
    const int most = v4 ? 32 : 128;
    if (bits.empty() || res.ec != std::errc{} || res.ptr != bits.data() + bits.size() || n < 0 || n > most)
      return std::nullopt;
    r.prefix = v4 ? 96 + n : n;
    if (!bits_past_prefix_clear(r.bytes, r.prefix)) return std::nullopt;
  }
  return r;
}

bool in_range(const AddressRange& r, const std::array<uint8_t, 16>& b) {
  for (int bit = 0; bit < r.prefix; ++bit) {
    const uint8_t mask = 0x80 >> (bit % 8);
    if ((r.bytes[bit / 8] & mask) != (b[bit / 8] & mask)) return false;
  }
  return true;
}

bool in_any(const std::vector<AddressRange>& ranges, const std::array<uint8_t, 16>& b) {
  return std::any_of(ranges.begin(), ranges.end(), [&b](const AddressRange& r) { return in_range(r, b); });
}

std::string_view first_item(std::string_view list) { return trim_ows(list.substr(0, list.find(','))); }

bool plausible_host(std::string_view h) {
  if (h.empty() || h.size() > kMaxHostLength) return false;
  return std::all_of(h.begin(), h.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7f && c != '/' && c != '\\' && c != '@' && c != ',';
  });
}

// The nearest client the trusted proxies vouch for, or nullopt when the
// list does not name one well.
std::optional<std::string> forwarded_client(const std::vector<AddressRange>& trusted, std::string_view list) {
  std::optional<std::string> client;
  while (!list.empty()) {
    const size_t comma = list.rfind(',');
    const std::string_view item = trim_ows(comma == std::string_view::npos ? list : list.substr(comma + 1));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(0, comma);
    const auto bytes = address_bytes(item);
    if (!bytes) return client;  // a name or garbage: nothing left of it is vouched for
    client = std::string(item);
    if (!in_any(trusted, *bytes)) return client;
  }
  return client;
}

}  // namespace

std::optional<std::vector<AddressRange>> parse_address_ranges(std::string_view text) {
  std::vector<AddressRange> out;
  while (true) {
    const size_t comma = text.find(',');
    const auto r = parse_range(text.substr(0, comma));
    if (!r) return std::nullopt;
    out.push_back(*r);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

bool address_in(const std::vector<AddressRange>& ranges, std::string_view address) {
  const auto b = address_bytes(address);
  return b && in_any(ranges, *b);
}

RequestOrigin resolve_origin(const std::vector<AddressRange>& trusted, std::string_view peer, bool tls,
                             std::string_view host, const ForwardedHeaders& headers) {
  RequestOrigin o{tls, std::string(host), std::string(peer), false};
  if (trusted.empty() || !address_in(trusted, peer)) return o;
  if (headers.proto) {
    const std::string_view p = first_item(*headers.proto);
    if (p == "https" || p == "HTTPS") o.tls = true, o.forwarded = true;
    if (p == "http" || p == "HTTP") o.tls = false, o.forwarded = true;
  }
  if (headers.host) {
    const std::string_view h = first_item(*headers.host);
    if (plausible_host(h)) o.host = std::string(h), o.forwarded = true;
  }
  if (headers.for_) {
    if (auto client = forwarded_client(trusted, *headers.for_)) o.remote = std::move(*client), o.forwarded = true;
  }
  return o;
}

}  // namespace voxl::net
