#include "net/forwarded.h"

#include <gtest/gtest.h>

namespace voxl::net {
namespace VOXL_TEST_FILE {

std::vector<AddressRange> ranges(std::string_view text) {
  auto r = parse_address_ranges(text);
  EXPECT_TRUE(r.has_value()) << text;
  return r.value_or(std::vector<AddressRange>{});
}

TEST(TrustedProxies, ListsOfAddressesAndRangesParse) {
  EXPECT_EQ(ranges("127.0.0.1").size(), 1u);
  EXPECT_EQ(ranges("127.0.0.1, 10.0.0.0/8,::1,fd00::/8").size(), 4u);
  EXPECT_EQ(ranges("0.0.0.0/0")[0].prefix, 96);
  EXPECT_EQ(ranges("10.0.0.0/8")[0].prefix, 104);
  EXPECT_EQ(ranges("2001:db8::/32")[0].prefix, 32);
}

TEST(TrustedProxies, BadListsAreRefused) {
  for (const char* bad : {"", ",", "127.0.0.1,", "localhost", "10.0.0.0/33", "::/129", "10.0.0.1/8", "10.0.0.0/",
                          "10.0.0.0/-1", "10.0.0.0/8x", "1.2.3", "fe80::1%eth0", "10.0.0.0 /8", "* "})
    EXPECT_FALSE(parse_address_ranges(bad).has_value()) << bad;
}

TEST(TrustedProxies, AddressesMatchTheirRangesInEitherFamily) {
  const auto r = ranges("10.0.0.0/8,::1,2001:db8::/32");
  EXPECT_TRUE(address_in(r, "10.200.3.4"));
  EXPECT_TRUE(address_in(r, "::ffff:10.200.3.4"));  // how a dual-stack socket names an IPv4 peer
  EXPECT_FALSE(address_in(r, "11.0.0.1"));
  EXPECT_TRUE(address_in(r, "::1"));
  EXPECT_FALSE(address_in(r, "127.0.0.1"));
  EXPECT_TRUE(address_in(r, "2001:db8:ffff::9"));
  EXPECT_FALSE(address_in(r, "2001:db9::1"));
  EXPECT_FALSE(address_in(r, ""));
  EXPECT_FALSE(address_in(r, "not an address"));
}

TEST(TrustedProxies, APeerNotTrustedChangesNothing) {
  const auto trusted = ranges("10.0.0.1");
  const RequestOrigin o = resolve_origin(trusted, "192.0.2.7", false, "desk:6901",
                                         {"https", "evil.example", "203.0.113.1"});
  EXPECT_FALSE(o.forwarded);
  EXPECT_FALSE(o.tls);
  EXPECT_EQ(o.host, "desk:6901");
  EXPECT_EQ(o.remote, "192.0.2.7");
  // Nor does anyone when no proxy is trusted.
  EXPECT_FALSE(resolve_origin({}, "10.0.0.1", false, "desk", {"https", "x", "1.2.3.4"}).forwarded);
}

TEST(TrustedProxies, ATrustedProxySaysSchemeHostAndClient) {
  const auto trusted = ranges("127.0.0.1");
  const RequestOrigin o = resolve_origin(trusted, "127.0.0.1", false, "127.0.0.1:6901",
                                         {"https", "desk.example.com:8443", "203.0.113.9"});
  EXPECT_TRUE(o.forwarded);
  EXPECT_TRUE(o.tls);
  EXPECT_EQ(o.host, "desk.example.com:8443");
  EXPECT_EQ(o.remote, "203.0.113.9");
  // The scheme goes both ways: a TLS hop from a proxy serving plain HTTP.
  EXPECT_FALSE(resolve_origin(trusted, "127.0.0.1", true, "h", {"http", {}, {}}).tls);
}

TEST(TrustedProxies, TheClientIsTheNearestAddressNoTrustedProxyAdded) {
  const auto trusted = ranges("127.0.0.1,10.0.0.0/8");
  // A client may send its own X-Forwarded-For: only what trusted hops added counts.
  EXPECT_EQ(resolve_origin(trusted, "127.0.0.1", false, "h", {{}, {}, "6.6.6.6, 203.0.113.9, 10.1.1.1"}).remote,
            "203.0.113.9");
  // Every hop a trusted proxy: the first of them.
  EXPECT_EQ(resolve_origin(trusted, "127.0.0.1", false, "h", {{}, {}, "10.0.0.5,10.0.0.6"}).remote, "10.0.0.5");
  // A name or garbage stops the walk: what lies beyond it is not vouched for.
  EXPECT_EQ(resolve_origin(trusted, "127.0.0.1", false, "h", {{}, {}, "1.1.1.1, unknown"}).remote, "127.0.0.1");
  EXPECT_EQ(resolve_origin(trusted, "127.0.0.1", false, "h", {{}, {}, "1.1.1.1, garbage, 10.0.0.5"}).remote,
            "10.0.0.5");
}

TEST(TrustedProxies, MalformedHeadersKeepTheConnectionsOwnValues) {
  const auto trusted = ranges("::1");
  const RequestOrigin o = resolve_origin(trusted, "::1", true, "desk", {"gopher", "bad host/x", ""});
  EXPECT_FALSE(o.forwarded);
  EXPECT_TRUE(o.tls);
  EXPECT_EQ(o.host, "desk");
  EXPECT_EQ(o.remote, "::1");
  // Lists: the first item of Proto and Host, as the browser-facing proxy wrote it.
  const RequestOrigin l = resolve_origin(trusted, "::1", false, "desk", {" https , http", "a.example, b.example", {}});
  EXPECT_TRUE(l.tls);
  EXPECT_EQ(l.host, "a.example");
}

}  // namespace
}  // namespace voxl::net
