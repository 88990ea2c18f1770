// libFuzzer target: the access policy with arbitrary request headers. The
// input is split at NUL bytes into Host, Origin, Authorization, Cookie and
// query; the first byte picks the settings (loopback only, Basic auth, a
// token, listed hosts and origins) and the WebSocket and TLS flags. Checks
// that decisions are consistent (a 200 has a role, a refusal has none) and
// that the small parsers never read outside their input, the cross-site rule
// keeps its reason short, and /ws-check always answers JSON.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "net/access_policy.h"
#include "net/stream_check.h"

VOXL_FUZZ_TARGET(access) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto f = voxl::fuzz::split_nul(rest, 5);

  voxl::net::AccessSettings s;
  s.loopback_only = flags & 1;
  s.basic_auth = flags & 2;
  s.user = "user";
  s.password = "secret";
  if (flags & 4) s.viewonly_password = "look";
  if (flags & 8) s.token = "0123456789abcdef0123456789abcdef";
  if (flags & 16) s.allowed_hosts = {"desk.example.com"};
  if (flags & 32) s.allowed_origins = {"https://app.example.com", "*"};
  s.own_hosts = {"desk"};

  voxl::net::RequestFacts r;
  r.host = f[0];
  if (!f[1].empty()) r.origin = f[1];
  r.authorization = f[2];
  r.cookie = f[3];
  r.query = f[4];
  r.websocket = flags & 64;
  r.tls = flags & 128;

  const auto d = voxl::net::check_access(s, r);
  // What /ws-check says of it: JSON that parses, whatever the headers held.
  const voxl::net::StreamCheck c = voxl::net::stream_check(s, r, d);
  if (c.status != d.status || !nlohmann::json::accept(c.json)) std::abort();
  if ((d.status == 200) != (d.role != voxl::net::Role::kNone)) std::abort();
  if (d.status == 200 && (s.basic_auth || !s.token.empty()) && d.credential == voxl::net::Credential::kNone)
    std::abort();
  if (d.status == 200 && !voxl::net::host_allowed(s, r.host)) std::abort();

  (void)voxl::net::is_loopback_host(r.host);
  (void)voxl::net::origin_allowed(s, f[1], r.host, r.tls);
  for (std::string_view v : voxl::net::cookie_values(r.cookie, voxl::net::kTokenCookie))
    if (v.data() < r.cookie.data() || v.data() + v.size() > r.cookie.data() + r.cookie.size()) std::abort();
  if (const auto q = voxl::net::query_param(r.query, voxl::net::kTokenParam))
    if (q->size() > r.query.size()) std::abort();
  const std::string stripped = voxl::net::without_query_param(r.query, voxl::net::kTokenParam);
  if (stripped.size() > r.query.size() || voxl::net::query_param(stripped, voxl::net::kTokenParam)) std::abort();
  if (const auto why = voxl::net::cross_site_reason(s, r.origin, f[2], r.host, r.tls); why && why->size() > 512)
    std::abort();
  (void)voxl::net::is_valid_token(f[3]);
  return 0;
}
