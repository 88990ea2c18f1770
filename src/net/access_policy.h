// Who may use the server: Host checks against DNS rebinding when listening
// on loopback only, Origin checks on WebSocket upgrades (cross-site
// WebSocket hijacking), and HTTP Basic authentication with a full and a
// view-only password. Pure functions; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace voxl::net {

struct AccessSettings {
  bool loopback_only = false;  // every listening address is loopback
  std::vector<std::string> allowed_origins;  // besides the page's own
  bool basic_auth = false;
  std::string user;
  std::string password;
  std::string viewonly_password;  // empty: no view-only access
};

enum class Role { kNone, kFull, kViewOnly };

struct AccessDecision {
  int status = 200;  // 200 allowed, else the HTTP status to answer with
  std::string reason;  // for the response body and the log
  Role role = Role::kNone;
};

struct RequestFacts {
  std::string_view host;           // Host header
  std::optional<std::string_view> origin;  // Origin header, if any
  std::string_view authorization;  // Authorization header, may be empty
  bool websocket = false;
  bool tls = false;
};

AccessDecision check_access(const AccessSettings& s, const RequestFacts& r);

// "localhost", 127.0.0.0/8 and ::1, with or without a port.
bool is_loopback_host(std::string_view host);
// Same scheme and authority as the page at `host` (or listed).
bool origin_allowed(const AccessSettings& s, std::string_view origin, std::string_view host, bool tls);
// "Basic base64(user:password)" -> {user, password}; nullopt if malformed.
std::optional<std::pair<std::string, std::string>> parse_basic_auth(std::string_view header);
// Standard base64 (padding required); nullopt on bad input.
std::optional<std::string> base64_decode(std::string_view in);

}  // namespace voxl::net
