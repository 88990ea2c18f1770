// Who may use the server: the Host allow-list (against DNS rebinding, on
// every listening address), the credential (HTTP Basic authentication with
// a full and a view-only password, or an access token sent as
// "Authorization: Bearer", the voxl_token cookie or ?token=), and Origin
// checks on WebSocket upgrades (cross-site WebSocket hijacking), and with
// --users-file the Basic sign-ins of named users (the verdicts the caller's
// SignInLookup knows; one not known yet is left pending). Also the
// small parsers these need (Host, Cookie, query, Content-Type). Pure
// functions; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "net/rights.h"
#include "net/sign_in_answer.h"

namespace voxl::net {

inline constexpr std::string_view kTokenCookie = "voxl_token";
inline constexpr std::string_view kTokenParam = "token";

struct AccessSettings {
  bool loopback_only = false;  // every listening address is loopback
  std::vector<std::string> allowed_origins;  // besides the page's own
  // Host names accepted besides IP literals and "localhost": the machine's
  // own names (computed at start) and --allowed-hosts ("*" accepts any).
  // When loopback_only, only loopback names and allowed_hosts pass.
  std::vector<std::string> own_hosts;
  std::vector<std::string> allowed_hosts;
  bool basic_auth = false;
  std::string user;
  std::string password;
  std::string viewonly_password;  // empty: no view-only access
  // Access token; empty: none. Without Basic auth it is the credential;
  // with Basic auth it is accepted besides the password (full access).
  std::string token;
  // Basic sign-ins of the users file's users (--users-file), beside the
  // built-in user when basic_auth is on too.
  bool users_file = false;
};

enum class Role { kNone, kFull, kViewOnly };

// Where the credential that let a request in came from.
enum class Credential { kNone, kBasic, kBearer, kCookie, kQuery, kProxy };

// What a refusal was about, so the page can say how to fix it.
enum class Refusal { kNone, kMissingHost, kHost, kCredential, kOrigin, kRights };

struct AccessDecision {
  int status = 200;  // 200 allowed, else the HTTP status to answer with
  std::string reason;  // for the response body and the log
  Refusal refused = Refusal::kNone;
  Role role = Role::kNone;
  Credential credential = Credential::kNone;
  // A credential was presented and was wrong (counts towards back-off);
  // a request without any credential is not a failed attempt.
  bool failed_attempt = false;
  bool stale_cookie = false;  // the voxl_token cookie was wrong: clear it
  // 401: which scheme to name in WWW-Authenticate ("Basic" or "Bearer").
  std::string challenge;
  // Who signed in: a users file's name, or "" (the built-in Basic user,
  // whose name everyone shares, the token, or no credential needed); and
  // what they may do (every
  // right but for a view-only password or a users file's grant).
  std::string user;
  Rights rights;
  // status 0: a users file's sign-in not checked yet. The caller has
  // `user` and `password` checked (SignIns::check) and asks again.
  bool sign_in_pending = false;
  std::string password;
};

struct RequestFacts {
  std::string_view host;           // Host header
  std::optional<std::string_view> origin;  // Origin header, if any
  std::string_view authorization;  // Authorization header, may be empty
  std::string_view cookie;         // Cookie header, may be empty
  std::string_view query;          // the target after '?', may be empty
  bool websocket = false;
  bool tls = false;
  // The user a trusted proxy named (--proxy-user-header), only when the
  // peer is one: it decides who this is, before any other credential.
  std::optional<std::string_view> proxy_user;
};

// `users` answers for the users file (s.users_file); without it, every
// sign-in that is not the built-in user's is refused.
// `named` answers for a user a trusted proxy named (r.proxy_user).
AccessDecision check_access(const AccessSettings& s, const RequestFacts& r, const SignInLookup& users = {},
                            const NamedUserLookup& named = {});
// The role that rights give: control is full, view alone view-only.
Role role_of(Rights rights);

// "localhost", 127.0.0.0/8 and ::1, with or without a port.
bool is_loopback_host(std::string_view host);
// True when the Host header names this server (see AccessSettings).
bool host_allowed(const AccessSettings& s, std::string_view host);
// Same scheme and authority as the page at `host` (or listed).
bool origin_allowed(const AccessSettings& s, std::string_view origin, std::string_view host, bool tls);
// "Basic base64(user:password)" -> {user, password}; nullopt if malformed.
std::optional<std::pair<std::string, std::string>> parse_basic_auth(std::string_view header);
// "Bearer <token>" -> token; nullopt for other schemes or an empty token.
std::optional<std::string_view> parse_bearer(std::string_view header);
// Every value of cookie `name` in a Cookie header ("a=1; b=2"), in order.
std::vector<std::string_view> cookie_values(std::string_view header, std::string_view name);
// The raw (undecoded) value of the first `name=` in a query string.
std::optional<std::string_view> query_param(std::string_view query, std::string_view name);
// The query without any `name=` parameters; the others keep their order.
std::string without_query_param(std::string_view query, std::string_view name);
// The one rule against cross-site requests (docs/security.md): a request
// that a page of another site made the user's browser send. It carries an
// Origin that is neither this server's page (scheme and `host`) nor listed
// in --allowed-origins ("null" is foreign), or, without an Origin, a
// Sec-Fetch-Site of "cross-site" or "same-site". A request with neither
// header comes from no page (curl, an agent's HTTP library) and is not
// cross-site. Returns why, for the answer and the log; nullopt when the
// request may act.
std::optional<std::string> cross_site_reason(const AccessSettings& s, std::optional<std::string_view> origin,
                                             std::optional<std::string_view> sec_fetch_site, std::string_view host,
                                             bool tls);
// `url` with "?token=<token>" appended; `url` itself when token is empty.
std::string with_access_token(const std::string& url, const std::string& token);
// 16 to 256 characters from A-Z a-z 0-9 - . _ ~ (safe in a URL and a
// cookie without escaping).
bool is_valid_token(std::string_view token);

}  // namespace voxl::net
