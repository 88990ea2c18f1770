#include "net/access_policy.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

namespace voxl::net {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
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

}  // namespace

bool is_loopback_host(std::string_view host) {
  const std::string h = lower(strip_port(host));
  if (h == "localhost" || h == "::1") return true;
  in_addr a{};
  if (inet_pton(AF_INET, h.c_str(), &a) == 1) return (ntohl(a.s_addr) >> 24) == 127;
  return false;
}

bool origin_allowed(const AccessSettings& s, std::string_view origin, std::string_view host, bool tls) {
  const std::string o = trim_slash(lower(origin));
  if (o == std::string(tls ? "https://" : "http://") + lower(host)) return true;
  return std::any_of(s.allowed_origins.begin(), s.allowed_origins.end(),
                     [&](const std::string& a) { return a == "*" || trim_slash(lower(a)) == o; });
}

std::optional<std::string> base64_decode(std::string_view in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  if (in.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < in.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = in[i + size_t(k)];
      if (c == '=' && i + 4 == in.size() && k >= 2) {
        v[k] = 0;
        ++pad;
      } else if (pad) {
        return std::nullopt;  // data after padding
      } else if ((v[k] = value(c)) < 0) {
        return std::nullopt;
      }
    }
    const uint32_t n = uint32_t(v[0]) << 18 | uint32_t(v[1]) << 12 | uint32_t(v[2]) << 6 | uint32_t(v[3]);
    out += char(n >> 16);
    if (pad < 2) out += char((n >> 8) & 0xff);
    if (pad < 1) out += char(n & 0xff);
  }
  return out;
}

std::optional<std::pair<std::string, std::string>> parse_basic_auth(std::string_view header) {
  constexpr std::string_view kScheme = "basic ";
  if (header.size() <= kScheme.size() || lower(header.substr(0, kScheme.size())) != kScheme)
    return std::nullopt;
  std::string_view b64 = header.substr(kScheme.size());
  while (!b64.empty() && b64.front() == ' ') b64.remove_prefix(1);
  const auto decoded = base64_decode(b64);
  if (!decoded) return std::nullopt;
  const size_t colon = decoded->find(':');
  if (colon == std::string::npos) return std::nullopt;
  return std::make_pair(decoded->substr(0, colon), decoded->substr(colon + 1));
}

AccessDecision check_access(const AccessSettings& s, const RequestFacts& r) {
  if (r.host.empty()) return {400, "missing Host header", Role::kNone};
  if (s.loopback_only && !is_loopback_host(r.host))
    return {403, "this server only answers to localhost names (Host: " + std::string(r.host) + ")",
            Role::kNone};
  Role role = Role::kFull;
  if (s.basic_auth) {
    const auto creds = parse_basic_auth(r.authorization);
    if (!creds) return {401, "authentication required", Role::kNone};
    const bool user_ok = same_secret(creds->first, s.user);
    if (user_ok && same_secret(creds->second, s.password)) {
      role = Role::kFull;
    } else if (user_ok && !s.viewonly_password.empty() && same_secret(creds->second, s.viewonly_password)) {
      role = Role::kViewOnly;
    } else {
      return {401, "wrong user name or password", Role::kNone};
    }
  }
  if (r.websocket && r.origin && !origin_allowed(s, *r.origin, r.host, r.tls))
    return {403, "WebSocket from a foreign origin (" + std::string(*r.origin) + ") refused; allow it with --allowed-origins",
            Role::kNone};
  return {200, {}, role};
}

}  // namespace voxl::net
