#include "net/access_policy.h"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <cctype>

#include "base/base64.h"
#include "net/http_tokens.h"

namespace voxl::net {

namespace {

namespace ip = boost::asio::ip;

// `text` as an IPv6 address (no scope id, as inet_pton reads it).
std::optional<ip::address_v6> ipv6_literal(const std::string& text) {
  if (text.find('%') != std::string::npos) return std::nullopt;
  boost::system::error_code ec;
  const ip::address_v6 a = ip::make_address_v6(text, ec);
  if (ec) return std::nullopt;
  return a;
}

// `text` as a dotted-quad IPv4 address.
std::optional<ip::address_v4> ipv4_literal(const std::string& text) {
  boost::system::error_code ec;
  const ip::address_v4 a = ip::make_address_v4(text, ec);
  if (ec) return std::nullopt;
  return a;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Host without the port: "[::1]:80" -> "::1", "a:80" -> "a".
std::string_view strip_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    const size_t close = host.find(']');
    return close == std::string_view::npos ? host : host.substr(1, close - 1);
  }
  const size_t colon = host.rfind(':');
  if (colon != std::string_view::npos && host.find(':') == colon) return host.substr(0, colon);
  return host;
}

// A Host header taken apart: the name or address, lowered, without the
// port and a trailing dot. nullopt when it is not a well-formed Host.
struct HostParts {
  std::string name;
  bool ip_literal = false;
  bool loopback = false;
};

bool valid_port(std::string_view p) {
  return !p.empty() && p.size() <= 5 && std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool valid_name(std::string_view n) {
  return !n.empty() && n.size() <= 253 && std::all_of(n.begin(), n.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
  });
}

std::optional<HostParts> parse_host(std::string_view host) {
  HostParts h;
  if (!host.empty() && host.front() == '[') {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view rest = host.substr(close + 1);
    if (!rest.empty() && (rest.front() != ':' || !valid_port(rest.substr(1)))) return std::nullopt;
    h.name = lower(host.substr(1, close - 1));
    const auto a = ipv6_literal(h.name);
    if (!a) return std::nullopt;
    h.ip_literal = true;
    h.loopback = a->is_loopback();
    return h;
  }
  const size_t first = host.find(':');
  if (first != std::string_view::npos && host.find(':', first + 1) != std::string_view::npos) {
    // Unbracketed IPv6 is not a valid Host, but it is an address, not a
    // name that DNS could rebind; is_loopback_host has always taken it.
    h.name = lower(host);
    const auto a = ipv6_literal(h.name);
    if (!a) return std::nullopt;
    h.ip_literal = true;
    h.loopback = a->is_loopback();
    return h;
  }
  std::string_view name = host.substr(0, first);
  if (first != std::string_view::npos && !valid_port(host.substr(first + 1))) return std::nullopt;
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  if (!valid_name(name)) return std::nullopt;
  h.name = lower(name);
  if (const auto a = ipv4_literal(h.name)) {
    h.ip_literal = true;
    h.loopback = (a->to_uint() >> 24) == 127;
  } else {
    h.loopback = h.name == "localhost";
  }
  return h;
}

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return n == "*" || iequals(n, name); });
}

// Compares without an early exit, so timing says nothing about where a
// guessed password first differs.
bool same_secret(std::string_view a, std::string_view b) {
  const size_t n = std::max(a.size(), b.size());
  unsigned diff = a.size() != b.size() ? 1u : 0u;
  for (size_t i = 0; i < n; ++i) {
    const unsigned x = i < a.size() ? uint8_t(a[i]) : 0u;
    const unsigned y = i < b.size() ? uint8_t(b[i]) : 0u;
    diff |= x ^ y;
  }
  return diff == 0;
}

std::string trim_slash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

// The token as the request presented it: Bearer, then the cookie, then
// the query. `any` is set when one was presented at all.
struct TokenCheck {
  bool presented = false;
  Credential matched = Credential::kNone;
  bool stale_cookie = false;
};

TokenCheck check_token(const std::string& token, const RequestFacts& r) {
  TokenCheck t;
  if (const auto bearer = parse_bearer(r.authorization)) {
    t.presented = true;
    if (same_secret(*bearer, token)) t.matched = Credential::kBearer;
  }
  const auto cookies = cookie_values(r.cookie, kTokenCookie);
  bool cookie_ok = false;
  for (std::string_view c : cookies) cookie_ok = same_secret(c, token) || cookie_ok;
  if (!cookies.empty()) {
    t.presented = true;
    if (cookie_ok && t.matched == Credential::kNone) t.matched = Credential::kCookie;
    t.stale_cookie = !cookie_ok;
  }
  if (const auto q = query_param(r.query, kTokenParam)) {
    t.presented = true;
    // The query wins over a cookie, so following a fresh link replaces a
    // cookie left from an earlier run.
    if (same_secret(*q, token) && t.matched != Credential::kBearer) t.matched = Credential::kQuery;
  }
  return t;
}

AccessDecision refuse(int status, Refusal what, std::string reason) {
  AccessDecision d;
  d.status = status;
  d.refused = what;
  d.reason = std::move(reason);
  return d;
}

AccessDecision wrong_password() {
  AccessDecision f = refuse(401, Refusal::kCredential, "wrong user name or password");
  f.failed_attempt = true;
  f.challenge = "Basic";
  return f;
}

// A users file's user, granted: signed in with their rights, or refused
// when those do not include seeing the desktop.
AccessDecision signed_in_as(SignInAnswer a) {
  if (!a.rights.has(Right::kView))
    return refuse(403, Refusal::kRights, "the user " + a.name + " may not view this desktop (the users file "
                                             "grants them no 'view')");
  AccessDecision d;
  d.user = std::move(a.name);
  d.rights = a.rights;
  return d;
}

// A Basic sign-in: the built-in user (--enable-basic-auth) by its name,
// any other name by the users file.
AccessDecision basic_sign_in(const AccessSettings& s, const std::string& name, std::string& password,
                             const SignInLookup& users) {
  AccessDecision d;
  if (s.basic_auth && same_secret(name, s.user)) {
    if (same_secret(password, s.password)) {
      d.rights = Rights::all();
    } else if (!s.viewonly_password.empty() && same_secret(password, s.viewonly_password)) {
      d.rights = Rights::of(Right::kView);
    } else {
      return wrong_password();
    }
    return d;  // one name shared by everyone who has the password: no one's
  }
  if (!s.users_file || !users) return wrong_password();
  SignInAnswer a = users(name, password);
  switch (a.verdict) {
    case SignInAnswer::Verdict::kRefused: return wrong_password();
    case SignInAnswer::Verdict::kUnknown:
      d.status = 0;
      d.sign_in_pending = true;
      d.user = name;
      d.password = std::move(password);
      return d;
    case SignInAnswer::Verdict::kGranted: break;
  }
  return signed_in_as(std::move(a));
}

// A user named by a trusted proxy: in the users file, or refused. Not a
// failed attempt: the proxy, not the client, chose the name.
AccessDecision proxy_sign_in(const AccessSettings& s, std::string_view name, const NamedUserLookup& named) {
  const std::string shown(name.substr(0, std::min<size_t>(name.size(), 64)));
  SignInAnswer a = s.users_file && named ? named(trim_ows(name)) : SignInAnswer{};
  if (a.verdict != SignInAnswer::Verdict::kGranted)
    return refuse(403, Refusal::kRights, "the proxy in front of voxl signed in '" + shown +
                                             "', who is not in the users file");
  return signed_in_as(std::move(a));
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  const std::string h = lower(strip_port(host));
  if (h == "localhost" || h == "::1") return true;
  if (const auto a = ipv4_literal(h)) return (a->to_uint() >> 24) == 127;
  return false;
}

bool host_allowed(const AccessSettings& s, std::string_view host) {
  const auto h = parse_host(host);
  if (!h) return false;
  if (h->loopback || listed(s.allowed_hosts, h->name)) return true;
  if (s.loopback_only) return false;
  // An address cannot be rebound: a page whose origin is an IP literal
  // belongs to whoever holds that address.
  return h->ip_literal || listed(s.own_hosts, h->name);
}

bool origin_allowed(const AccessSettings& s, std::string_view origin, std::string_view host, bool tls) {
  const std::string o = trim_slash(lower(origin));
  if (o == std::string(tls ? "https://" : "http://") + lower(host)) return true;
  return std::any_of(s.allowed_origins.begin(), s.allowed_origins.end(),
                     [&](const std::string& a) { return a == "*" || trim_slash(lower(a)) == o; });
}

std::optional<std::pair<std::string, std::string>> parse_basic_auth(std::string_view header) {
  constexpr std::string_view kScheme = "basic ";
  if (header.size() <= kScheme.size() || !iequals(header.substr(0, kScheme.size()), kScheme)) return std::nullopt;
  std::string_view b64 = header.substr(kScheme.size());
  while (!b64.empty() && b64.front() == ' ') b64.remove_prefix(1);
  const auto decoded = voxl::base64_decode(b64);
  if (!decoded) return std::nullopt;
  const size_t colon = decoded->find(':');
  if (colon == std::string::npos) return std::nullopt;
  return std::make_pair(decoded->substr(0, colon), decoded->substr(colon + 1));
}

std::optional<std::string_view> parse_bearer(std::string_view header) {
  constexpr std::string_view kScheme = "bearer ";
  if (header.size() <= kScheme.size() || !iequals(header.substr(0, kScheme.size()), kScheme)) return std::nullopt;
  const std::string_view token = trim_ows(header.substr(kScheme.size()));
  if (token.empty()) return std::nullopt;
  return token;
}

std::vector<std::string_view> cookie_values(std::string_view header, std::string_view name) {
  std::vector<std::string_view> out;
  constexpr size_t kMaxCookies = 64;  // a header of thousands of pairs gets no further
  for (size_t n = 0; !header.empty() && n < kMaxCookies; ++n) {
    const size_t semi = header.find(';');
    const std::string_view pair = trim_ows(header.substr(0, semi));
    const size_t eq = pair.find('=');
    if (eq != std::string_view::npos && trim_ows(pair.substr(0, eq)) == name) {
      std::string_view value = trim_ows(pair.substr(eq + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      out.push_back(value);
    }
    if (semi == std::string_view::npos) break;
    header.remove_prefix(semi + 1);
  }
  return out;
}

std::optional<std::string_view> query_param(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    const size_t eq = item.find('=');
    if (item.substr(0, eq) == name) return eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

std::string without_query_param(std::string_view query, std::string_view name) {
  std::string out;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    if (!item.empty() && item.substr(0, item.find('=')) != name) {
      if (!out.empty()) out += '&';
      out += item;
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::optional<std::string> cross_site_reason(const AccessSettings& s, std::optional<std::string_view> origin,
                                             std::optional<std::string_view> sec_fetch_site, std::string_view host,
                                             bool tls) {
  // The Origin decides when there is one: a listed origin's requests say
  // "cross-site" too, and are meant to pass.
  if (origin) {
    if (origin_allowed(s, *origin, host, tls)) return std::nullopt;
    return "a page of another site (Origin: " + std::string(origin->substr(0, std::min<size_t>(origin->size(), 200))) +
           ") may not do this; allow that origin with --allowed-origins";
  }
  if (sec_fetch_site) {
    const std::string site = lower(trim_ows(*sec_fetch_site));
    if (site == "cross-site" || site == "same-site")
      return "a page of another site (Sec-Fetch-Site: " + site + ") may not do this";
  }
  return std::nullopt;
}

std::string with_access_token(const std::string& url, const std::string& token) {
  if (token.empty()) return url;
  return url + (url.find('?') == std::string::npos ? "?" : "&") + std::string(kTokenParam) + "=" + token;
}

bool is_valid_token(std::string_view token) {
  return token.size() >= 16 && token.size() <= 256 && std::all_of(token.begin(), token.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~';
         });
}

Role role_of(Rights rights) {
  if (rights.has(Right::kControl) && rights.has(Right::kView)) return Role::kFull;
  return rights.has(Right::kView) ? Role::kViewOnly : Role::kNone;
}

AccessDecision check_access(const AccessSettings& s, const RequestFacts& r, const SignInLookup& users,
                            const NamedUserLookup& named) {
  if (r.host.empty()) return refuse(400, Refusal::kMissingHost, "missing Host header");
  if (!host_allowed(s, r.host)) {
    const std::string host(r.host.substr(0, std::min<size_t>(r.host.size(), 200)));
    return refuse(403, Refusal::kHost, s.loopback_only
                           ? "this server only answers to localhost names (Host: " + host +
                                 "); add other names with --allowed-hosts"
                           : "this server does not answer to the name in Host: " + host +
                                 " (it answers to IP addresses, localhost and this machine's names; add others "
                                 "with --allowed-hosts)");
  }
  AccessDecision d;
  d.rights = Rights::all();
  const bool basic = s.basic_auth || s.users_file;
  if (r.proxy_user) {
    AccessDecision p = proxy_sign_in(s, *r.proxy_user, named);
    if (p.status != 200) return p;
    d.credential = Credential::kProxy;
    d.user = std::move(p.user);
    d.rights = p.rights;
  } else if (basic || !s.token.empty()) {
    const TokenCheck t = s.token.empty() ? TokenCheck{} : check_token(s.token, r);
    auto creds = basic ? parse_basic_auth(r.authorization) : std::nullopt;
    d.stale_cookie = t.stale_cookie;
    if (t.matched != Credential::kNone) {
      d.credential = t.matched;
    } else if (creds) {
      AccessDecision b = basic_sign_in(s, creds->first, creds->second, users);
      b.stale_cookie = t.stale_cookie;
      if (b.status != 200) return b;
      d.credential = Credential::kBasic;
      d.user = std::move(b.user);
      d.rights = b.rights;
    } else {
      const bool sent_something = t.presented || !r.authorization.empty();
      AccessDecision f = refuse(
          401, Refusal::kCredential, basic ? (sent_something ? "wrong credentials" : "authentication required")
                            : (sent_something ? "wrong access token"
                                              : "this server needs its access token: open the address voxl "
                                                "logged at start (it ends in ?token=...), or send "
                                                "Authorization: Bearer <token>"));
      f.failed_attempt = sent_something;
      f.stale_cookie = t.stale_cookie;
      f.challenge = basic ? "Basic" : "Bearer";
      return f;
    }
  }
  d.role = role_of(d.rights);
  if (r.websocket && r.origin && !origin_allowed(s, *r.origin, r.host, r.tls)) {
    AccessDecision f = refuse(403, Refusal::kOrigin, "WebSocket from a foreign origin (" +
                                       std::string(r.origin->substr(0, std::min<size_t>(r.origin->size(), 200))) +
                                       ") refused; allow it with --allowed-origins");
    return f;
  }
  return d;
}

}  // namespace voxl::net
