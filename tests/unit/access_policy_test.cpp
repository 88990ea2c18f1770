#include "net/access_policy.h"

#include <gtest/gtest.h>

#include <string>

namespace voxl::net {
namespace VOXL_TEST_FILE {

// "Basic " + base64("user:secret") and friends.
constexpr std::string_view kUserSecret = "Basic dXNlcjpzZWNyZXQ=";  // user:secret
constexpr std::string_view kUserLook = "Basic dXNlcjpsb29r";         // user:look
constexpr std::string_view kUserWrong = "Basic dXNlcjp3cm9uZw==";    // user:wrong
constexpr std::string_view kOtherSecret = "Basic b3RoZXI6c2VjcmV0";  // other:secret
constexpr std::string_view kUserEmpty = "Basic dXNlcjo=";            // user:

TEST(IsLoopbackHost, AcceptsLocalNamesWithAndWithoutPorts) {
  for (std::string_view h : {"localhost", "LOCALHOST:80", "LocalHost:6901", "127.0.0.1", "127.1.2.3:6901",
                             "127.255.255.255", "[::1]:6901", "[::1]", "::1"})
    EXPECT_TRUE(is_loopback_host(h)) << h;
}

TEST(IsLoopbackHost, RejectsEverythingElse) {
  for (std::string_view h : {"128.0.0.1", "126.255.255.255", "evil.com", "localhost.evil.com",
                             "127.0.0.1.evil.com", "evil.localhost.com:80", "0.0.0.0", "", "[::2]:80", "::",
                             "192.168.1.10:6901", "[::1"})
    EXPECT_FALSE(is_loopback_host(h)) << h;
}

TEST(OriginAllowed, SameOriginMatchesSchemeHostAndPort) {
  const AccessSettings s;
  EXPECT_TRUE(origin_allowed(s, "http://localhost:6901", "localhost:6901", false));
  EXPECT_TRUE(origin_allowed(s, "https://desk.example.com", "desk.example.com", true));
  EXPECT_FALSE(origin_allowed(s, "https://localhost:6901", "localhost:6901", false)) << "wrong scheme";
  EXPECT_FALSE(origin_allowed(s, "http://desk.example.com", "desk.example.com", true)) << "wrong scheme";
  EXPECT_FALSE(origin_allowed(s, "http://localhost:6902", "localhost:6901", false)) << "wrong port";
  EXPECT_FALSE(origin_allowed(s, "http://localhost", "localhost:6901", false)) << "missing port";
  EXPECT_FALSE(origin_allowed(s, "http://evil.com", "localhost:6901", false));
  EXPECT_FALSE(origin_allowed(s, "null", "localhost:6901", false));
}

TEST(OriginAllowed, IgnoresCaseAndATrailingSlash) {
  const AccessSettings s;
  EXPECT_TRUE(origin_allowed(s, "HTTP://LocalHost:6901", "localhost:6901", false));
  EXPECT_TRUE(origin_allowed(s, "http://localhost:6901", "LOCALHOST:6901", false));
  EXPECT_TRUE(origin_allowed(s, "http://localhost:6901/", "localhost:6901", false));
}

TEST(OriginAllowed, ListedOriginsAreAllowedToo) {
  AccessSettings s;
  s.allowed_origins = {"https://App.Example.com/", "http://10.0.0.5:8080"};
  EXPECT_TRUE(origin_allowed(s, "https://app.example.com", "localhost:6901", false));
  EXPECT_TRUE(origin_allowed(s, "http://10.0.0.5:8080/", "localhost:6901", false));
  EXPECT_FALSE(origin_allowed(s, "http://app.example.com", "localhost:6901", false)) << "scheme differs";
  EXPECT_FALSE(origin_allowed(s, "http://10.0.0.5:8081", "localhost:6901", false)) << "port differs";
  EXPECT_FALSE(origin_allowed(s, "https://evil.example.com", "localhost:6901", false));
}

TEST(OriginAllowed, StarAllowsAnyOrigin) {
  AccessSettings s;
  s.allowed_origins = {"*"};
  EXPECT_TRUE(origin_allowed(s, "https://evil.com", "localhost:6901", false));
  EXPECT_TRUE(origin_allowed(s, "null", "localhost:6901", true));
}

TEST(ParseBasicAuth, SplitsUserAndPassword) {
  const auto c = parse_basic_auth(kUserSecret);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->first, "user");
  EXPECT_EQ(c->second, "secret");
}

TEST(ParseBasicAuth, SchemeIsCaseInsensitiveAndExtraSpacesAreSkipped) {
  EXPECT_TRUE(parse_basic_auth("basic dXNlcjpzZWNyZXQ="));
  EXPECT_TRUE(parse_basic_auth("BASIC dXNlcjpzZWNyZXQ="));
  const auto c = parse_basic_auth("Basic   dXNlcjpzZWNyZXQ=");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->second, "secret");
}

TEST(ParseBasicAuth, PasswordKeepsEverythingAfterTheFirstColon) {
  const auto c = parse_basic_auth("Basic dXNlcjpwYTpzcw==");  // user:pa:ss
  ASSERT_TRUE(c);
  EXPECT_EQ(c->first, "user");
  EXPECT_EQ(c->second, "pa:ss");
  const auto empty = parse_basic_auth(kUserEmpty);
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->second, "");
}

TEST(ParseBasicAuth, RejectsMalformedHeaders) {
  for (std::string_view h : {"", "Basic", "Basic ", "Bearer dXNlcjpzZWNyZXQ=", "Basicx dXNlcjpzZWNyZXQ=",
                             "Basic dXNlcnNlY3JldA==" /* no colon */, "Basic !!!!", "Basic dXNlcjpzZWNyZXQ"})
    EXPECT_FALSE(parse_basic_auth(h)) << h;
}

RequestFacts facts(std::string_view host, std::string_view authorization = {}) {
  RequestFacts r;
  r.host = host;
  r.authorization = authorization;
  return r;
}

AccessSettings with_auth() {
  AccessSettings s;
  s.basic_auth = true;
  s.user = "user";
  s.password = "secret";
  s.viewonly_password = "look";
  return s;
}

TEST(CheckAccess, MissingHostIs400) {
  const AccessDecision d = check_access(AccessSettings{}, facts(""));
  EXPECT_EQ(d.status, 400);
  EXPECT_EQ(d.role, Role::kNone);
  EXPECT_FALSE(d.reason.empty());
}

TEST(CheckAccess, OpenServerGrantsFullAccess) {
  AccessSettings s;
  s.own_hosts = {"desk.example.com"};
  const AccessDecision d = check_access(s, facts("desk.example.com:6901"));
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.role, Role::kFull);
  EXPECT_EQ(d.credential, Credential::kNone);
}

TEST(CheckAccess, LoopbackOnlyRefusesForeignHostNames) {
  AccessSettings s;
  s.loopback_only = true;
  const AccessDecision foreign = check_access(s, facts("evil.com:6901"));
  EXPECT_EQ(foreign.status, 403);
  EXPECT_EQ(foreign.role, Role::kNone);
  EXPECT_NE(foreign.reason.find("evil.com"), std::string::npos);
  EXPECT_EQ(check_access(s, facts("localhost:6901")).status, 200);
  EXPECT_EQ(check_access(s, facts("127.0.0.1:6901")).status, 200);
  EXPECT_EQ(check_access(s, facts("[::1]:6901")).status, 200);
}

TEST(CheckAccess, BasicAuthWantsCredentials) {
  const AccessSettings s = with_auth();
  for (std::string_view auth : {std::string_view{}, std::string_view{"Basic !!!!"}, kUserWrong, kOtherSecret}) {
    const AccessDecision d = check_access(s, facts("localhost", auth));
    EXPECT_EQ(d.status, 401) << auth;
    EXPECT_EQ(d.role, Role::kNone) << auth;
  }
}

TEST(CheckAccess, BasicAuthGivesFullOrViewOnlyRole) {
  const AccessSettings s = with_auth();
  const AccessDecision full = check_access(s, facts("localhost", kUserSecret));
  EXPECT_EQ(full.status, 200);
  EXPECT_EQ(full.role, Role::kFull);
  const AccessDecision view = check_access(s, facts("localhost", kUserLook));
  EXPECT_EQ(view.status, 200);
  EXPECT_EQ(view.role, Role::kViewOnly);
}

TEST(CheckAccess, NoViewOnlyPasswordMeansAnEmptyPasswordIsWrong) {
  AccessSettings s = with_auth();
  s.viewonly_password.clear();
  EXPECT_EQ(check_access(s, facts("localhost", kUserEmpty)).status, 401);
  EXPECT_EQ(check_access(s, facts("localhost", kUserLook)).status, 401);
  EXPECT_EQ(check_access(s, facts("localhost", kUserSecret)).role, Role::kFull);
}

TEST(CheckAccess, HostIsCheckedBeforeCredentials) {
  AccessSettings s = with_auth();
  s.loopback_only = true;
  EXPECT_EQ(check_access(s, facts("evil.com", kUserSecret)).status, 403);
}

TEST(CheckAccess, WebSocketFromAForeignOriginIsRefused) {
  RequestFacts r = facts("localhost:6901");
  r.websocket = true;
  r.origin = "http://evil.com";
  const AccessDecision d = check_access(AccessSettings{}, r);
  EXPECT_EQ(d.status, 403);
  EXPECT_EQ(d.role, Role::kNone);
  EXPECT_NE(d.reason.find("http://evil.com"), std::string::npos);
}

TEST(CheckAccess, WebSocketFromTheSameOriginOrWithoutOriginIsAllowed) {
  RequestFacts r = facts("localhost:6901");
  r.websocket = true;
  EXPECT_EQ(check_access(AccessSettings{}, r).status, 200) << "no Origin (not a browser)";
  r.origin = "http://localhost:6901";
  EXPECT_EQ(check_access(AccessSettings{}, r).status, 200);
  r.tls = true;
  EXPECT_EQ(check_access(AccessSettings{}, r).status, 403) << "an https page's origin is https://";
  r.origin = "https://localhost:6901";
  EXPECT_EQ(check_access(AccessSettings{}, r).status, 200);
}

TEST(CheckAccess, WebSocketOriginCheckKeepsTheAuthenticatedRole) {
  RequestFacts r = facts("localhost:6901", kUserLook);
  r.websocket = true;
  r.origin = "http://localhost:6901";
  const AccessDecision d = check_access(with_auth(), r);
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.role, Role::kViewOnly);
  r.origin = "http://evil.com";
  EXPECT_EQ(check_access(with_auth(), r).status, 403);
}

TEST(CheckAccess, PlainRequestsIgnoreOrigin) {
  RequestFacts r = facts("localhost:6901");
  r.origin = "http://evil.com";
  const AccessDecision d = check_access(AccessSettings{}, r);
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.role, Role::kFull);
}

// ------------------------------------------------------------ Host allow-list

AccessSettings everywhere() {
  AccessSettings s;
  s.own_hosts = {"desk", "desk.lan"};
  s.allowed_hosts = {"voxl.example.com"};
  return s;
}

TEST(HostAllowed, AddressesLocalhostAndOwnNamesPassOnAnyAddress) {
  const AccessSettings s = everywhere();
  for (std::string_view h : {"10.0.0.5", "10.0.0.5:6901", "192.168.1.2:80", "[2001:db8::1]", "[2001:db8::1]:6901",
                             "[::1]:6901", "127.0.0.1", "localhost", "LOCALHOST:6901", "localhost.", "desk",
                             "DESK:6901", "desk.lan:6901", "desk.lan.", "voxl.example.com", "Voxl.Example.Com:443"})
    EXPECT_TRUE(host_allowed(s, h)) << h;
}

TEST(HostAllowed, OtherNamesAndMalformedHostsAreRefused) {
  const AccessSettings s = everywhere();
  for (std::string_view h : {"evil.example", "evil.example:6901", "desk.evil.example", "evil.localhost",
                             "localhost.evil.example", "sub.voxl.example.com", "", ":6901", "desk:", "desk:abc",
                             "desk:123456", "[::1", "[::1]x", "[::1]:", "[evil.example]", "desk lan", "desk/x",
                             "127.0.0.1.evil.example", "1.2.3", "a..b\x01"})
    EXPECT_FALSE(host_allowed(s, h)) << h;
}

TEST(HostAllowed, StarAllowsAnyWellFormedName) {
  AccessSettings s;
  s.allowed_hosts = {"*"};
  EXPECT_TRUE(host_allowed(s, "evil.example:6901"));
  EXPECT_FALSE(host_allowed(s, "evil example")) << "still a Host";
}

TEST(HostAllowed, LoopbackOnlyKeepsToLoopbackAndListedNames) {
  AccessSettings s = everywhere();
  s.loopback_only = true;
  for (std::string_view h : {"localhost:6901", "127.0.0.1", "127.3.4.5:80", "[::1]:6901", "voxl.example.com"})
    EXPECT_TRUE(host_allowed(s, h)) << h;
  for (std::string_view h : {"desk", "desk.lan", "10.0.0.5", "[2001:db8::1]", "evil.example"})
    EXPECT_FALSE(host_allowed(s, h)) << h;
}

TEST(CheckAccess, ForeignHostIsRefusedOnEveryAddress) {
  const AccessDecision d = check_access(everywhere(), facts("evil.example:6901"));
  EXPECT_EQ(d.status, 403);
  EXPECT_NE(d.reason.find("evil.example"), std::string::npos);
  EXPECT_NE(d.reason.find("--allowed-hosts"), std::string::npos);
}

TEST(CheckAccess, DnsRebindingWebSocketIsRefusedEvenWithOriginEqualToHost) {
  AccessSettings s = everywhere();
  s.token = "0123456789abcdef0123456789abcdef";
  RequestFacts r = facts("evil.example:6901", "Bearer 0123456789abcdef0123456789abcdef");
  r.websocket = true;
  r.origin = "http://evil.example:6901";
  EXPECT_EQ(check_access(s, r).status, 403);
}

// ------------------------------------------------------------ access token

constexpr std::string_view kToken = "0123456789abcdef0123456789abcdef";

AccessSettings with_token() {
  AccessSettings s = everywhere();
  s.token = std::string(kToken);
  return s;
}

TEST(CheckAccess, TokenIsNeeded) {
  const AccessDecision d = check_access(with_token(), facts("10.0.0.5:6901"));
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.challenge, "Bearer");
  EXPECT_FALSE(d.failed_attempt) << "nothing was presented";
  EXPECT_NE(d.reason.find("?token="), std::string::npos);
}

TEST(CheckAccess, TokenAsBearerCookieOrQuery) {
  const AccessSettings s = with_token();
  const std::string bearer = "Bearer " + std::string(kToken);
  AccessDecision d = check_access(s, facts("desk:6901", bearer));
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.credential, Credential::kBearer);
  EXPECT_EQ(d.role, Role::kFull);

  const std::string cookie = "theme=dark; voxl_token=" + std::string(kToken) + "; x=1";
  RequestFacts r = facts("desk:6901");
  r.cookie = cookie;
  d = check_access(s, r);
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.credential, Credential::kCookie);
  EXPECT_FALSE(d.stale_cookie);

  const std::string query = "a=1&token=" + std::string(kToken);
  r = facts("desk:6901");
  r.query = query;
  d = check_access(s, r);
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.credential, Credential::kQuery);
}

TEST(CheckAccess, WrongTokenIsAFailedAttempt) {
  const AccessSettings s = with_token();
  AccessDecision d = check_access(s, facts("desk", "Bearer 0123456789abcdef0123456789abcdee"));
  EXPECT_EQ(d.status, 401);
  EXPECT_TRUE(d.failed_attempt);
  RequestFacts r = facts("desk");
  r.query = "token=nope";
  EXPECT_TRUE(check_access(s, r).failed_attempt);
  r = facts("desk");
  r.cookie = "voxl_token=old";
  d = check_access(s, r);
  EXPECT_EQ(d.status, 401);
  EXPECT_TRUE(d.failed_attempt);
  EXPECT_TRUE(d.stale_cookie);
  r = facts("desk", "Basic dXNlcjpzZWNyZXQ=");
  EXPECT_TRUE(check_access(s, r).failed_attempt) << "Basic where a token is wanted";
}

TEST(CheckAccess, AFreshLinkWinsOverAStaleCookie) {
  const std::string query = "token=" + std::string(kToken);
  RequestFacts r = facts("desk");
  r.cookie = "voxl_token=old";
  r.query = query;
  const AccessDecision d = check_access(with_token(), r);
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.credential, Credential::kQuery);
  EXPECT_TRUE(d.stale_cookie);
}

TEST(CheckAccess, HostIsCheckedBeforeTheToken) {
  const std::string bearer = "Bearer " + std::string(kToken);
  EXPECT_EQ(check_access(with_token(), facts("evil.example", bearer)).status, 403);
}

TEST(CheckAccess, WithBasicAuthATokenIsAcceptedToo) {
  AccessSettings s = with_auth();
  s.token = std::string(kToken);
  const std::string bearer = "Bearer " + std::string(kToken);
  AccessDecision d = check_access(s, facts("localhost", bearer));
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.role, Role::kFull);
  d = check_access(s, facts("localhost", kUserLook));
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.role, Role::kViewOnly);
  d = check_access(s, facts("localhost"));
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.challenge, "Basic");
  EXPECT_TRUE(check_access(s, facts("localhost", kUserWrong)).failed_attempt);
}

TEST(CheckAccess, WrongBasicPasswordIsAFailedAttemptButNoneIsNot) {
  EXPECT_TRUE(check_access(with_auth(), facts("localhost", kUserWrong)).failed_attempt);
  EXPECT_FALSE(check_access(with_auth(), facts("localhost")).failed_attempt);
}

// ------------------------------------------------------------ small parsers

TEST(ParseBearer, TakesTheTokenOfABearerHeader) {
  EXPECT_EQ(parse_bearer("Bearer abc"), "abc");
  EXPECT_EQ(parse_bearer("bearer   abc  "), "abc");
  for (std::string_view h : {"", "Bearer", "Bearer ", "Bearer    ", "Basic abc", "Bearerabc"})
    EXPECT_FALSE(parse_bearer(h)) << h;
}

TEST(CookieValues, FindsEveryValueOfTheName) {
  EXPECT_EQ(cookie_values("a=1; voxl_token=x; b=2; voxl_token=\"y\"", "voxl_token"),
            (std::vector<std::string_view>{"x", "y"}));
  EXPECT_TRUE(cookie_values("", "voxl_token").empty());
  EXPECT_TRUE(cookie_values("voxl_token_x=1;novalue;=;;", "voxl_token").empty());
  EXPECT_EQ(cookie_values("voxl_token=", "voxl_token"), (std::vector<std::string_view>{""}));
}

TEST(QueryParam, FirstValueRawAndTheRestKept) {
  EXPECT_EQ(query_param("a=1&token=t&token=u", "token"), "t");
  EXPECT_EQ(query_param("token", "token"), "");
  EXPECT_FALSE(query_param("tokens=1&xtoken=2", "token"));
  EXPECT_FALSE(query_param("", "token"));
  EXPECT_EQ(without_query_param("a=1&token=t&b=2&token", "token"), "a=1&b=2");
  EXPECT_EQ(without_query_param("token=t", "token"), "");
  EXPECT_EQ(without_query_param("stats&&x=%20", "token"), "stats&x=%20");
}

TEST(CrossSite, ScriptsAndTheOwnPagePass) {
  AccessSettings s;
  // curl, an agent's HTTP library: neither header.
  EXPECT_FALSE(cross_site_reason(s, std::nullopt, std::nullopt, "localhost:6901", false));
  // The server's own page, and a request the user typed (Sec-Fetch-Site: none).
  EXPECT_FALSE(cross_site_reason(s, "http://localhost:6901", "same-origin", "localhost:6901", false));
  EXPECT_FALSE(cross_site_reason(s, std::nullopt, "same-origin", "localhost:6901", false));
  EXPECT_FALSE(cross_site_reason(s, std::nullopt, "none", "localhost:6901", false));
  EXPECT_FALSE(cross_site_reason(s, "HTTPS://Desk.Example.com", std::nullopt, "desk.example.com", true));
}

TEST(CrossSite, ForeignNullAndSiblingPagesAreRefused) {
  AccessSettings s;
  for (std::string_view o : {"http://evil.example", "null", "https://localhost:6901", "http://localhost:6902", ""}) {
    const auto why = cross_site_reason(s, o, std::nullopt, "localhost:6901", false);
    ASSERT_TRUE(why) << o;
    EXPECT_NE(why->find("--allowed-origins"), std::string::npos) << *why;
  }
  // Without an Origin, the browser's own word for where the request came from.
  for (std::string_view site : {"cross-site", "same-site", "Cross-Site", " same-site "})
    EXPECT_TRUE(cross_site_reason(s, std::nullopt, site, "localhost:6901", false)) << site;
  // The Origin decides when there is one: a foreign one with "same-origin" is still foreign.
  EXPECT_TRUE(cross_site_reason(s, "http://evil.example", "same-origin", "localhost:6901", false));
  // A very long Origin is cut in the reason.
  const std::string long_origin = "http://" + std::string(5000, 'a');
  EXPECT_LT(cross_site_reason(s, long_origin, std::nullopt, "localhost:6901", false)->size(), 400u);
}

TEST(CrossSite, ListedOriginsPassEvenWhenTheBrowserSaysCrossSite) {
  AccessSettings s;
  s.allowed_origins = {"https://dashboard.example"};
  EXPECT_FALSE(cross_site_reason(s, "https://dashboard.example", "cross-site", "desk:6901", false));
  EXPECT_TRUE(cross_site_reason(s, "https://other.example", "cross-site", "desk:6901", false));
  s.allowed_origins = {"*"};
  EXPECT_FALSE(cross_site_reason(s, "https://other.example", "cross-site", "desk:6901", false));
}

TEST(AccessToken, UrlAndFormat) {
  EXPECT_EQ(with_access_token("http://127.0.0.1:6901/", ""), "http://127.0.0.1:6901/");
  EXPECT_EQ(with_access_token("http://127.0.0.1:6901/", std::string(kToken)),
            "http://127.0.0.1:6901/?token=" + std::string(kToken));
  EXPECT_TRUE(is_valid_token(kToken));
  EXPECT_TRUE(is_valid_token("A-b.c_d~e-f.g_h~"));
  EXPECT_FALSE(is_valid_token("short"));
  EXPECT_FALSE(is_valid_token("0123456789abcdef 0123"));
  EXPECT_FALSE(is_valid_token("0123456789abcdef;0123"));
  EXPECT_FALSE(is_valid_token(std::string(257, 'a')));
}

}  // namespace
}  // namespace voxl::net
