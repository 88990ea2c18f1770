#include "net/http_routes.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <spdlog/sinks/null_sink.h>

#include <memory>
#include <span>
#include <string>

#include "net/embedded_assets.h"
#include "stream/fanout/hub.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

using ParsedResponse = http::response<http::string_body>;

Logger null_logger() {
  return std::make_shared<spdlog::logger>("http-routes-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

// Carries requests and responses through Beast's in-memory stream, so both
// directions go through real HTTP serialisation and parsing.
class HttpRoutesTest : public ::testing::Test {
 protected:
  HttpRoutesTest() : client_(ioc_), server_(ioc_) {
    ctx_.viewers.hub = &hub_;
    ctx_.viewers.log = null_logger();
    ctx_.log = ctx_.viewers.log;
    client_.connect(server_);
    ctx_.now = [this] { return now_; };
  }

  // Sends `raw` from the client, parses it on the server side and routes it.
  Routed route(const std::string& raw) {
    asio::write(client_, asio::buffer(raw));
    Request req;
    beast::flat_buffer buf;
    http::read(server_, buf, req);
    return route_request(req, ctx_, remote_);
  }

  // Writes `res` from the server and parses it on the client side.
  ParsedResponse deliver(Response res, bool head = false) {
    http::write(server_, res);
    beast::flat_buffer buf;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    if (head) parser.skip(true);  // a HEAD response has headers only
    http::read(client_, buf, parser);
    return parser.release();
  }

  ParsedResponse get(const std::string& raw, bool head = false) {
    Routed r = route(raw);
    EXPECT_FALSE(r.upgrade);
    return deliver(std::move(r.response), head);
  }

  static std::string header(const ParsedResponse& res, http::field f) {
    const auto it = res.find(f);
    return it == res.end() ? std::string("<missing>") : std::string(it->value());
  }

  static std::string header(const ParsedResponse& res, std::string_view name) {
    const auto it = res.find(name);
    return it == res.end() ? std::string("<missing>") : std::string(it->value());
  }

  static std::string bytes(std::span<const uint8_t> b) {
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  }

  asio::io_context ioc_;
  beast::test::stream client_;
  beast::test::stream server_;
  stream::Hub hub_{stream::PipelineControls{}};
  SessionContext ctx_;
  std::string remote_ = "10.0.0.9";
  AuthThrottle::Clock::time_point now_{};
};

constexpr const char* kUpgradeHeaders =
    "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";

TEST_F(HttpRoutesTest, IndexIsServedAsHtml) {
  const auto res = get("GET / HTTP/1.1\r\nHost: localhost:6901\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(header(res, http::field::content_type).rfind("text/html", 0), 0u) << header(res, http::field::content_type);
  const Asset* index = find_asset("/");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(res.body(), bytes(index->data));
  EXPECT_NE(res.body().find("<html"), std::string::npos);
  EXPECT_EQ(header(res, http::field::etag), std::string(index->etag));
}

TEST_F(HttpRoutesTest, ScriptIsServedPlainWithoutAcceptEncoding) {
  const auto res = get("GET /app.js HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(header(res, http::field::content_type).rfind("text/javascript", 0), 0u);
  EXPECT_EQ(res.find(http::field::content_encoding), res.end());
  const Asset* js = find_asset("/app.js");
  ASSERT_NE(js, nullptr);
  EXPECT_FALSE(js->data.empty());
  EXPECT_EQ(res.body(), bytes(js->data));
  EXPECT_EQ(header(res, http::field::vary), "Accept-Encoding");
  EXPECT_EQ(header(res, http::field::cache_control), "no-cache");
}

TEST_F(HttpRoutesTest, ScriptIsServedGzippedWhenAccepted) {
  const auto res = get("GET /app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(header(res, http::field::content_encoding), "gzip");
  const Asset* js = find_asset("/app.js");
  ASSERT_NE(js, nullptr);
  EXPECT_EQ(res.body(), bytes(js->gzip));
  ASSERT_GE(res.body().size(), 2u);
  EXPECT_EQ(uint8_t(res.body()[0]), 0x1f);
  EXPECT_EQ(uint8_t(res.body()[1]), 0x8b);
  EXPECT_EQ(header(res, http::field::content_length), std::to_string(js->gzip.size()));
}

TEST_F(HttpRoutesTest, QueryStringIsIgnoredForAssets) {
  const auto res = get("GET /app.js?v=3 HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::ok);
}

TEST_F(HttpRoutesTest, MatchingIfNoneMatchGives304) {
  const Asset* js = find_asset("/app.js");
  ASSERT_NE(js, nullptr);
  const auto res = get("GET /app.js HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: " + std::string(js->etag) +
                       "\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::not_modified);
  EXPECT_TRUE(res.body().empty());
  EXPECT_EQ(header(res, http::field::etag), std::string(js->etag));

  const auto stale = get("GET /app.js HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: \"0000\"\r\n\r\n");
  EXPECT_EQ(stale.result(), http::status::ok);
}

TEST_F(HttpRoutesTest, IfNoneMatchListsAndWeakTagsAreUnderstood) {
  const Asset* js = find_asset("/app.js");
  ASSERT_NE(js, nullptr);
  const std::string tag(js->etag);
  for (const std::string& inm : {"\"x\", " + tag, "W/" + tag, std::string("*"), tag + " ,\"y\""}) {
    const auto res = get("GET /app.js HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: " + inm + "\r\n\r\n");
    EXPECT_EQ(res.result(), http::status::not_modified) << inm;
  }
}

TEST_F(HttpRoutesTest, CompressedBodyHasItsOwnEntityTag) {
  const Asset* js = find_asset("/app.js");
  ASSERT_NE(js, nullptr);
  const auto gz = get("GET /app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n");
  const std::string gz_tag = header(gz, http::field::etag);
  EXPECT_NE(gz_tag, std::string(js->etag));
  // The plain tag does not validate the compressed body, and vice versa.
  const auto plain_tag_for_gz = get("GET /app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\nIf-None-Match: " +
                                    std::string(js->etag) + "\r\n\r\n");
  EXPECT_EQ(plain_tag_for_gz.result(), http::status::ok);
  const auto revalidated = get("GET /app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\nIf-None-Match: " +
                               gz_tag + "\r\n\r\n");
  EXPECT_EQ(revalidated.result(), http::status::not_modified);
}

TEST_F(HttpRoutesTest, HeadHasContentLengthButNoBody) {
  const Asset* index = find_asset("/");
  ASSERT_NE(index, nullptr);
  Routed r = route("HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_TRUE(r.response.body().empty());
  const auto res = deliver(std::move(r.response), true);
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(header(res, http::field::content_length), std::to_string(index->data.size()));
  EXPECT_TRUE(res.body().empty());
}

TEST_F(HttpRoutesTest, UnknownPathIs404) {
  const auto res = get("GET /nope HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::not_found);
  EXPECT_NE(res.body().find("/nope"), std::string::npos);
}

TEST_F(HttpRoutesTest, OtherMethodsAre405WithAllow) {
  for (const char* method : {"POST", "PUT", "DELETE"}) {
    const auto res = get(std::string(method) + " / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nhi");
    EXPECT_EQ(res.result(), http::status::method_not_allowed) << method;
    EXPECT_EQ(header(res, http::field::allow), "GET, HEAD") << method;
  }
}

TEST_F(HttpRoutesTest, StatsAreJson) {
  ctx_.viewers.stream_figures = [] {
    stream::StreamFigures f;
    f.stream.fps = 42;
    return f;
  };
  const auto res = get("GET /stats HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(header(res, http::field::content_type), "application/json");
  EXPECT_EQ(header(res, http::field::cache_control), "no-store");
  EXPECT_EQ(res.body().substr(0, 1), "{");
  EXPECT_NE(res.body().find(R"("fps":42,)"), std::string::npos);
}

TEST_F(HttpRoutesTest, StatsWithoutASourceAreAnEmptyObject) {
  const auto res = get("GET /stats HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.body().substr(0, 2), "{}");
}

TEST_F(HttpRoutesTest, WebSocketPathWithoutUpgradeIs426) {
  const auto res = get("GET /ws HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::upgrade_required);
}

TEST_F(HttpRoutesTest, WebSocketUpgradeIsHandedOverWithTheRole) {
  const Routed r = route(std::string("GET /ws HTTP/1.1\r\nHost: localhost:6901\r\n") + kUpgradeHeaders +
                         "Origin: http://localhost:6901\r\n\r\n");
  EXPECT_TRUE(r.upgrade);
  EXPECT_EQ(r.role, Role::kFull);
}

TEST_F(HttpRoutesTest, UpgradeElsewhereIsNotAWebSocket) {
  const Routed r = route(std::string("GET / HTTP/1.1\r\nHost: localhost\r\n") + kUpgradeHeaders + "\r\n");
  EXPECT_FALSE(r.upgrade);
  EXPECT_EQ(deliver(r.response).result(), http::status::ok);
}

TEST_F(HttpRoutesTest, ViewOnlyCredentialsGiveAViewOnlyWebSocket) {
  ctx_.settings.access.basic_auth = true;
  ctx_.settings.access.user = "user";
  ctx_.settings.access.password = "secret";
  ctx_.settings.access.viewonly_password = "look";
  const Routed r = route(std::string("GET /ws HTTP/1.1\r\nHost: localhost\r\n") + kUpgradeHeaders +
                         "Authorization: Basic dXNlcjpsb29r\r\n\r\n");
  EXPECT_TRUE(r.upgrade);
  EXPECT_EQ(r.role, Role::kViewOnly);
}

TEST_F(HttpRoutesTest, WebSocketFromAForeignOriginIsRefused) {
  Routed r = route(std::string("GET /ws HTTP/1.1\r\nHost: localhost:6901\r\n") + kUpgradeHeaders +
                   "Origin: http://evil.com\r\n\r\n");
  EXPECT_FALSE(r.upgrade);
  EXPECT_EQ(deliver(std::move(r.response)).result(), http::status::forbidden);
}

TEST_F(HttpRoutesTest, ForeignHostIsRefusedWhenLoopbackOnly) {
  ctx_.settings.access.loopback_only = true;
  const auto res = get("GET / HTTP/1.1\r\nHost: attacker.example:6901\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::forbidden);
  EXPECT_NE(res.body().find("attacker.example"), std::string::npos);
  EXPECT_EQ(get("GET / HTTP/1.1\r\nHost: localhost:6901\r\n\r\n").result(), http::status::ok);
}

TEST_F(HttpRoutesTest, MissingHostIs400) {
  const auto res = get("GET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::bad_request);
}

TEST_F(HttpRoutesTest, BasicAuthChallengesAndAccepts) {
  ctx_.settings.access.basic_auth = true;
  ctx_.settings.access.user = "user";
  ctx_.settings.access.password = "secret";
  const auto missing = get("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(missing.result(), http::status::unauthorized);
  EXPECT_EQ(header(missing, http::field::www_authenticate).rfind("Basic realm=", 0), 0u)
      << header(missing, http::field::www_authenticate);

  const auto wrong = get("GET / HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic dXNlcjp3cm9uZw==\r\n\r\n");
  EXPECT_EQ(wrong.result(), http::status::unauthorized);
  EXPECT_NE(wrong.find(http::field::www_authenticate), wrong.end());

  const auto ok = get("GET / HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic dXNlcjpzZWNyZXQ=\r\n\r\n");
  EXPECT_EQ(ok.result(), http::status::ok);
}

TEST_F(HttpRoutesTest, KeepAliveFollowsTheRequest) {
  EXPECT_TRUE(get("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").keep_alive());
  EXPECT_FALSE(get("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").keep_alive());
  EXPECT_FALSE(get("GET /nope HTTP/1.0\r\nHost: localhost\r\n\r\n").keep_alive());
}

TEST_F(HttpRoutesTest, RegisteredEndpointsGetTheCallAfterAccessAndMethodChecks) {
  Endpoint e{{"POST"}, [](const EndpointRequest&, ReplyFn) { return CancelFn(); }};
  ctx_.settings.endpoints["/record/start"] = e;
  const Routed ok = route("POST /record/start?x=1%20 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
  ASSERT_NE(ok.endpoint, nullptr);
  EXPECT_EQ(ok.call.method, "POST");
  EXPECT_EQ(ok.call.path, "/record/start");
  EXPECT_EQ(ok.call.query, "x=1%20");

  const Routed wrong = route("GET /record/start HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(wrong.endpoint, nullptr);
  const auto res = deliver(Response(wrong.response));
  EXPECT_EQ(res.result(), http::status::method_not_allowed);
  EXPECT_EQ(header(res, http::field::allow), "POST");

  ctx_.settings.access.loopback_only = true;
  const Routed refused = route("POST /record/start HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(refused.endpoint, nullptr);
  EXPECT_EQ(refused.response.result(), http::status::forbidden);
}

// ------------------------------------------------------------ Host allow-list

TEST_F(HttpRoutesTest, ForeignHostIsRefusedOnAnyAddress) {
  ctx_.settings.access.own_hosts = {"desk"};
  const auto res = get("GET / HTTP/1.1\r\nHost: attacker.example:6901\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::forbidden);
  EXPECT_NE(res.body().find("attacker.example"), std::string::npos);
  EXPECT_EQ(get("GET / HTTP/1.1\r\nHost: desk:6901\r\n\r\n").result(), http::status::ok);
  EXPECT_EQ(get("GET / HTTP/1.1\r\nHost: 192.168.1.4:6901\r\n\r\n").result(), http::status::ok);
}

TEST_F(HttpRoutesTest, RebindingWebSocketIsRefusedThoughOriginEqualsHost) {
  Routed r = route(std::string("GET /ws HTTP/1.1\r\nHost: evil.example:6901\r\n") + kUpgradeHeaders +
                   "Origin: http://evil.example:6901\r\n\r\n");
  EXPECT_FALSE(r.upgrade);
  EXPECT_EQ(deliver(std::move(r.response)).result(), http::status::forbidden);
}

// ------------------------------------------------------------ access token

constexpr std::string_view kToken = "0123456789abcdef0123456789abcdef";

TEST_F(HttpRoutesTest, TokenIsAskedForWithABearerChallenge) {
  ctx_.settings.access.token = std::string(kToken);
  const auto res = get("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::unauthorized);
  EXPECT_EQ(header(res, http::field::www_authenticate), "Bearer realm=\"voxl\"");
  EXPECT_EQ(header(res, http::field::set_cookie), "<missing>");
}

TEST_F(HttpRoutesTest, QueryTokenRedirectsToTheCleanUrlWithACookie) {
  ctx_.settings.access.token = std::string(kToken);
  const auto res = get("GET /?stats&token=" + std::string(kToken) + "&x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::see_other);
  EXPECT_EQ(header(res, http::field::location), "./?stats&x=1");
  EXPECT_EQ(header(res, http::field::set_cookie),
            "voxl_token=" + std::string(kToken) + "; HttpOnly; SameSite=Strict");
  EXPECT_EQ(header(res, http::field::cache_control), "no-store");

  const auto plain = get("GET /app.js?token=" + std::string(kToken) + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(header(plain, http::field::location), "./app.js");
  // Relative, so a prefix a reverse proxy took off stays in the browser's address.
  const auto deep = get("GET /files/download?path=a&token=" + std::string(kToken) + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(header(deep, http::field::location), "./download?path=a");

  ctx_.settings.tls = true;
  const auto secure = get("GET /?token=" + std::string(kToken) + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_NE(header(secure, http::field::set_cookie).find("; Secure"), std::string::npos);
}

TEST_F(HttpRoutesTest, CookieAndBearerLetIn) {
  ctx_.settings.access.token = std::string(kToken);
  EXPECT_EQ(get("GET / HTTP/1.1\r\nHost: localhost\r\nCookie: a=b; voxl_token=" + std::string(kToken) + "\r\n\r\n")
                .result(),
            http::status::ok);
  EXPECT_EQ(get("GET /stats HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + std::string(kToken) + "\r\n\r\n")
                .result(),
            http::status::ok);
  const Routed ws = route(std::string("GET /ws HTTP/1.1\r\nHost: localhost:6901\r\n") + kUpgradeHeaders +
                          "Origin: http://localhost:6901\r\nCookie: voxl_token=" + std::string(kToken) + "\r\n\r\n");
  EXPECT_TRUE(ws.upgrade);
  EXPECT_EQ(ws.role, Role::kFull);
  const Routed bare = route(std::string("GET /ws HTTP/1.1\r\nHost: localhost:6901\r\n") + kUpgradeHeaders +
                            "Origin: http://localhost:6901\r\n\r\n");
  EXPECT_FALSE(bare.upgrade);
  EXPECT_EQ(bare.response.result(), http::status::unauthorized);
}

TEST_F(HttpRoutesTest, ATrustedProxysSchemeAndHostDecideTheOriginCheck) {
  // nginx terminating TLS for https://desk.example.com/desktops/7/ and
  // passing the request on from 10.0.0.9 with Host rewritten.
  const std::string upgrade = std::string("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:6901\r\n") + kUpgradeHeaders +
                              "Origin: https://desk.example.com\r\nX-Forwarded-Proto: https\r\n"
                              "X-Forwarded-Host: desk.example.com\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n";
  ctx_.settings.access.allowed_hosts = {"desk.example.com"};
  const Routed untrusted = route(upgrade);
  EXPECT_FALSE(untrusted.upgrade);
  EXPECT_EQ(untrusted.response.result(), http::status::forbidden);

  ctx_.settings.trusted_proxies = *parse_address_ranges("10.0.0.0/24");
  EXPECT_TRUE(route(upgrade).upgrade);

  // The cookie of a token handed over through the proxy is a Secure one.
  ctx_.settings.access.token = std::string(kToken);
  const auto res = get("GET /?token=" + std::string(kToken) +
                       " HTTP/1.1\r\nHost: 127.0.0.1:6901\r\nX-Forwarded-Proto: https\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::see_other);
  EXPECT_NE(header(res, http::field::set_cookie).find("; Secure"), std::string::npos);
}

TEST_F(HttpRoutesTest, WrongCredentialsThroughATrustedProxyCountAgainstTheClientNotTheProxy) {
  ctx_.settings.access.token = std::string(kToken);
  ctx_.settings.trusted_proxies = *parse_address_ranges("10.0.0.9");
  const auto wrong_from = [this](const std::string& client) {
    return get("GET /stats HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer wrong-token-0123456789\r\n"
               "X-Forwarded-For: " + client + "\r\n\r\n");
  };
  for (int i = 0; i < 40 && wrong_from("203.0.113.9").result() != http::status::too_many_requests; ++i) {
  }
  EXPECT_EQ(wrong_from("203.0.113.9").result(), http::status::too_many_requests);
  // Another client behind the same proxy is not locked out.
  EXPECT_EQ(get("GET /stats HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + std::string(kToken) +
                "\r\nX-Forwarded-For: 198.51.100.4\r\n\r\n")
                .result(),
            http::status::ok);
}

TEST_F(HttpRoutesTest, StaleCookieIsCleared) {
  ctx_.settings.access.token = std::string(kToken);
  const auto res = get("GET / HTTP/1.1\r\nHost: localhost\r\nCookie: voxl_token=old\r\n\r\n");
  EXPECT_EQ(res.result(), http::status::unauthorized);
  EXPECT_EQ(header(res, http::field::set_cookie), "voxl_token=; HttpOnly; SameSite=Strict; Max-Age=0");
}

TEST_F(HttpRoutesTest, RepeatedWrongCredentialsCloseTheConnectionThenBackOff) {
  ctx_.settings.access.token = std::string(kToken);
  const std::string wrong = "GET / HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer wrongwrongwrongwrong\r\n\r\n";
  const std::string right = "GET / HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + std::string(kToken) + "\r\n\r\n";
  EXPECT_FALSE(route(wrong).close);
  EXPECT_FALSE(route(wrong).close);
  EXPECT_TRUE(route(wrong).close) << "the third failure closes";
  route(wrong);
  Routed fifth = route(wrong);
  EXPECT_EQ(fifth.response.result(), http::status::unauthorized);
  Routed blocked = route(right);
  EXPECT_TRUE(blocked.close);
  const auto res = deliver(std::move(blocked.response));
  EXPECT_EQ(res.result(), http::status::too_many_requests);
  EXPECT_EQ(header(res, http::field::retry_after), "1");

  remote_ = "10.0.0.10";
  EXPECT_EQ(route(right).response.result(), http::status::ok) << "another address";
  remote_ = "10.0.0.9";
  now_ += std::chrono::seconds(2);
  EXPECT_EQ(route(right).response.result(), http::status::ok) << "the block ran out";
}

TEST_F(HttpRoutesTest, NoCredentialIsNotAFailedAttempt) {
  ctx_.settings.access.token = std::string(kToken);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(route("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").close);
  EXPECT_EQ(ctx_.auth_throttle.size(), 0u);
}

// ------------------------------------------------------------ Content-Type

TEST_F(HttpRoutesTest, PagesOfOtherSitesMayNotActScriptsNeedNoContentType) {
  Endpoint e{{"POST", "GET"}, [](const EndpointRequest&, ReplyFn) { return CancelFn(); }};
  ctx_.settings.endpoints["/input"] = e;
  for (const char* from : {"Origin: http://evil.example\r\n", "Origin: null\r\n", "Sec-Fetch-Site: cross-site\r\n",
                           "Sec-Fetch-Site: same-site\r\n",
                           "Origin: http://evil.example\r\nSec-Fetch-Site: same-origin\r\n"}) {
    Routed r = route(std::string("POST /input HTTP/1.1\r\nHost: localhost\r\n") + from +
                     "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    EXPECT_EQ(r.endpoint, nullptr) << from;
    const auto res = deliver(std::move(r.response));
    EXPECT_EQ(res.result(), http::status::forbidden) << from;
    EXPECT_EQ(header(res, http::field::content_type), "application/json");
    EXPECT_NE(res.body().find("\"parameter\":\"Origin\""), std::string::npos) << res.body();
  }
  // Scripts send neither header, and whatever Content-Type (curl -d sends a form's).
  for (const char* type : {"", "Content-Type: application/x-www-form-urlencoded\r\n", "Content-Type: text/plain\r\n",
                           "Content-Type: application/json\r\n"}) {
    const Routed ok = route(std::string("POST /input HTTP/1.1\r\nHost: localhost\r\n") + type +
                            "Content-Length: 2\r\n\r\n{}");
    EXPECT_NE(ok.endpoint, nullptr) << type;
    EXPECT_FALSE(ok.call.foreign_origin) << type;
  }
  // The server's own page.
  const Routed own = route(
      "POST /input HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nSec-Fetch-Site: same-origin\r\n"
      "Content-Length: 2\r\n\r\n{}");
  EXPECT_NE(own.endpoint, nullptr);
  // A GET may look from anywhere; the handler is told where it came from.
  const Routed look = route("GET /input HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: cross-site\r\n\r\n");
  ASSERT_NE(look.endpoint, nullptr);
  EXPECT_TRUE(look.call.foreign_origin);
}

TEST_F(HttpRoutesTest, WsCheckAnswersWhatTheUpgradeWouldGet) {
  const auto ok = deliver(route("POST /ws-check HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\n"
                                "Content-Length: 0\r\n\r\n")
                              .response);
  EXPECT_EQ(ok.result(), http::status::ok);
  EXPECT_EQ(ok.body(), "{\"ok\":true}\n");
  const auto foreign = deliver(route("POST /ws-check HTTP/1.1\r\nHost: 127.0.0.1:6901\r\n"
                                     "Origin: https://proxy.example\r\nContent-Length: 0\r\n\r\n")
                                   .response);
  EXPECT_EQ(foreign.result(), http::status::forbidden);
  EXPECT_EQ(header(foreign, http::field::content_type), "application/json");
  EXPECT_NE(foreign.body().find("\"refused\":\"origin\""), std::string::npos) << foreign.body();
  ctx_.settings.access.basic_auth = true;
  ctx_.settings.access.user = "voxl";
  ctx_.settings.access.password = "secret";
  const auto wrong = deliver(route("POST /ws-check HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\n"
                                   "Authorization: Basic dm94bDp3cm9uZw==\r\nContent-Length: 0\r\n\r\n")
                                 .response);
  EXPECT_EQ(wrong.result(), http::status::unauthorized);
  // The browser sends the password it holds for the page only when asked.
  EXPECT_EQ(header(wrong, http::field::www_authenticate), "Basic realm=\"voxl\", charset=\"UTF-8\"");
  EXPECT_NE(wrong.body().find("\"refused\":\"credentials\""), std::string::npos) << wrong.body();
  EXPECT_EQ(ctx_.auth_failures, 1u) << "counts as a wrong credential";
}

// ------------------------------------------------------------ framing

TEST_F(HttpRoutesTest, PageMayOnlyBeFramedByItself) {
  const auto res = get("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(header(res, "Content-Security-Policy"), "frame-ancestors 'self'");
  EXPECT_EQ(header(res, http::field::x_frame_options), "SAMEORIGIN");
}

TEST_F(HttpRoutesTest, AllowedOriginsMayFrameThePageTooButThenNoXFrameOptions) {
  ctx_.settings.access.allowed_origins = {"https://app.example.com", "http://10.0.0.5:8080"};
  const auto res = get("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(header(res, "Content-Security-Policy"),
            "frame-ancestors 'self' https://app.example.com http://10.0.0.5:8080");
  EXPECT_EQ(header(res, http::field::x_frame_options), "<missing>");
}

TEST(JsonError, NamesTheParameter) {
  const EndpointReply r = json_error(400, "idle", "idle must be an integer");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body, "{\"error\":\"idle must be an integer\",\"parameter\":\"idle\"}\n");
}

TEST(BadRequestResponse, Is400AndClosesTheConnection) {
  const Response res = bad_request_response("header too long");
  EXPECT_EQ(res.result(), http::status::bad_request);
  EXPECT_FALSE(res.keep_alive());
  EXPECT_NE(res.body().find("header too long"), std::string::npos);
}

}  // namespace
}  // namespace voxl::net
