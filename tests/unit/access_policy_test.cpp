#include "net/access_policy.h"

#include <gtest/gtest.h>

#include <string>

namespace voxl::net {
namespace {

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

TEST(Base64Decode, DecodesValidInput) {
  EXPECT_EQ(base64_decode(""), "");
  EXPECT_EQ(base64_decode("aGVsbG8h"), "hello!");
  EXPECT_EQ(base64_decode("aGVsbG8="), "hello");
  EXPECT_EQ(base64_decode("aGVsbA=="), "hell");
  EXPECT_EQ(base64_decode("+/+/"), std::string("\xfb\xff\xbf", 3));
  EXPECT_EQ(base64_decode("AP8="), std::string("\x00\xff", 2));
}

TEST(Base64Decode, RejectsInvalidCharacters) {
  for (std::string_view in : {"aGV$bG8=", "aGVsbG8-", "aGVs_G8=", "aGVs bG8", "aGVs\nbG8"})
    EXPECT_FALSE(base64_decode(in)) << in;
}

TEST(Base64Decode, RejectsLengthsThatAreNotAMultipleOfFour) {
  for (std::string_view in : {"a", "aG", "aGV", "aGVsbG8", "aGVsbG8=="})
    EXPECT_FALSE(base64_decode(in)) << in;
}

TEST(Base64Decode, RejectsMisplacedPadding) {
  // Data after padding, padding in the first two positions of a group,
  // padding before the last group.
  for (std::string_view in : {"aG=v", "a===", "====", "=GVs", "aGVsbG8=aGVs", "aG==aGVs"})
    EXPECT_FALSE(base64_decode(in)) << in;
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
  const AccessDecision d = check_access(AccessSettings{}, facts("desk.example.com:6901"));
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.role, Role::kFull);
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

}  // namespace
}  // namespace voxl::net
