// Who gets in, against the real binary listening on every address: the Host
// allow-list (a request or a WebSocket for a rebound name is refused even
// with the right credential), the access token (Bearer, ?token= turning
// into a cookie, the cookie), the generated token in the start-up line,
// back-off after wrong credentials, the one rule against cross-site
// requests (a page of another site may not act; a script needs no special
// header), and /ws-check, which tells the page why its stream was refused.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "http_client.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

constexpr const char* kToken = "fixed-token-for-the-access-test-0123";

class AccessTest : public VoxlFixture {
 protected:
  ~AccessTest() override {
    if (!token_file_.empty()) std::filesystem::remove(token_file_);
  }

  // voxl on 0.0.0.0 with `extra_args`.
  void start_everywhere(std::vector<std::string> extra_args) {
    start_display(0);
    voxl_.emplace(display_->name(), extra_args, std::chrono::seconds(60), std::vector<std::string>{}, "0.0.0.0");
  }

  std::string write_token_file() {
    token_file_ = (std::filesystem::temp_directory_path() / ("voxl-access-test-" + std::to_string(getpid()))).string();
    std::ofstream(token_file_) << kToken << "\n";
    chmod(token_file_.c_str(), 0600);
    return token_file_;
  }

  HttpAnswer get(const std::string& target, std::vector<std::pair<std::string, std::string>> headers = {}) {
    return http_request(voxl_->port(), {"GET", target, std::move(headers)});
  }

  std::string local_host() const { return "127.0.0.1:" + std::to_string(voxl_->port()); }


  std::string token_file_;
};

const std::string kBearer = std::string("Bearer ") + kToken;

TEST_F(AccessTest, ForeignHostIsRefusedEvenWithTheRightToken) {
  start_everywhere({"--auth-token-file=" + write_token_file()});
  const HttpAnswer a = get("/", {{"Host", "evil.example"}, {"Authorization", kBearer}});
  EXPECT_EQ(a.status, 403);
  EXPECT_NE(a.body.find("--allowed-hosts"), std::string::npos) << a.body;
  EXPECT_EQ(get("/", {{"Host", "evil.example:" + std::to_string(voxl_->port())}, {"Authorization", kBearer}}).status,
            403);
  EXPECT_EQ(get("/", {{"Authorization", kBearer}}).status, 200);
  EXPECT_EQ(get("/", {{"Host", "localhost:" + std::to_string(voxl_->port())}, {"Authorization", kBearer}}).status,
            200);
}

TEST_F(AccessTest, RebindingWebSocketIsRefused) {
  start_everywhere({"--auth-token-file=" + write_token_file()});
  ClientOptions o = client_options();
  o.host = "evil.example:" + std::to_string(voxl_->port());
  o.origin = "http://" + o.host;  // the rebound page's own origin
  o.authorization = kBearer;
  EXPECT_EQ(handshake_status(o), 403);

  ClientOptions good = client_options();
  good.origin = "http://" + local_host();
  EXPECT_EQ(handshake_status(good), 401) << "no credential";
  good.authorization = kBearer;
  EXPECT_EQ(handshake_status(good), 101);
}

TEST_F(AccessTest, WithoutACredentialIs401) {
  start_everywhere({"--auth-token-file=" + write_token_file()});
  EXPECT_TRUE(voxl_->token().empty()) << "a token from a file is not logged";
  EXPECT_EQ(voxl_->log().find(kToken), std::string::npos);
  const HttpAnswer a = get("/");
  EXPECT_EQ(a.status, 401);
  EXPECT_EQ(a.header("www-authenticate").rfind("Bearer", 0), 0u) << a.header("www-authenticate");
  EXPECT_EQ(get("/stats").status, 401);
  EXPECT_EQ(get("/screenshot").status, 401);
}

TEST_F(AccessTest, QueryTokenBecomesACookieThatWorks) {
  start_everywhere({"--auth-token-file=" + write_token_file()});
  const HttpAnswer a = get(std::string("/?stats&token=") + kToken);
  EXPECT_EQ(a.status, 303);
  EXPECT_EQ(a.header("location"), "./?stats");
  const std::string cookie = a.header("set-cookie");
  EXPECT_EQ(cookie, std::string("voxl_token=") + kToken + "; HttpOnly; SameSite=Strict");
  const std::string pair = cookie.substr(0, cookie.find(';'));
  const HttpAnswer page = get("/?stats", {{"Cookie", pair}});
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.header("x-frame-options"), "SAMEORIGIN");
  EXPECT_EQ(page.header("content-security-policy"), "frame-ancestors 'self'");
  EXPECT_EQ(get("/stats", {{"Cookie", pair}}).status, 200);
}

TEST_F(AccessTest, GeneratedTokenIsInTheStartLineAndWorks) {
  start_everywhere({});
  const std::string token = voxl_->token();
  ASSERT_EQ(token.size(), 32u) << voxl_->log();
  EXPECT_EQ(get("/").status, 401);
  EXPECT_EQ(get("/", {{"Authorization", "Bearer " + token}}).status, 200);
  EXPECT_EQ(get("/?token=" + token).status, 303);
}

TEST_F(AccessTest, InsecureNoAuthOptsOutWithAWarning) {
  start_everywhere({"--insecure-no-auth"});
  EXPECT_TRUE(voxl_->token().empty());
  EXPECT_NE(voxl_->log().find("controls this desktop"), std::string::npos) << voxl_->log();
  EXPECT_EQ(get("/").status, 200);
}

TEST_F(AccessTest, WrongTokensBackOff) {
  start_everywhere({"--auth-token-file=" + write_token_file()});
  // From the fifth failure on, each one blocks the address for longer
  // (1 s, 2 s, 4 s, ...), so a 429 comes soon however slow the machine is.
  int status = 0;
  HttpAnswer last;
  for (int i = 0; i < 20 && status != 429; ++i) {
    last = get("/", {{"Authorization", "Bearer wrong-token-0123456789"}});
    status = last.status;
    ASSERT_TRUE(status == 401 || status == 429) << status;
  }
  EXPECT_EQ(status, 429);
  EXPECT_FALSE(last.header("retry-after").empty());
  EXPECT_TRUE(voxl_->wait_for_log("failed attempt", std::chrono::seconds(10)));
}

TEST_F(AccessTest, PagesOfOtherSitesMayNotActScriptsNeedNoHeader) {
  start_voxl();
  const uint16_t port = voxl_->port();
  const std::string move = R"({"type":"move","x":1,"y":1})";
  // A form on another site: no JSON, a foreign Origin.
  const HttpAnswer form = http_request(
      port, {"POST", "/input", {{"Origin", "http://evil.example"}, {"Content-Type", "application/x-www-form-urlencoded"}}},
      move);
  EXPECT_EQ(form.status, 403);
  EXPECT_NE(form.body.find("--allowed-origins"), std::string::npos) << form.body;
  EXPECT_NE(form.body.find("POST /input"), std::string::npos) << form.body;
  // A sandboxed frame (Origin: null), and a request the browser marks as
  // another site's without an Origin.
  EXPECT_EQ(http_request(port, {"POST", "/record/start", {{"Origin", "null"}}}).status, 403);
  EXPECT_EQ(http_request(port, {"POST", "/record/start", {{"Sec-Fetch-Site", "cross-site"}}}).status, 403);
  EXPECT_EQ(http_request(port, {"POST", "/computer", {{"Sec-Fetch-Site", "same-site"}}}, R"({"action":"wait"})").status,
            403);
  EXPECT_EQ(http_request(port, {"POST", "/mcp", {{"Origin", "http://evil.example"}}}, "{}").status, 403);
  EXPECT_EQ(voxl_->log().find("recording 1 started"), std::string::npos) << voxl_->log();
  EXPECT_TRUE(voxl_->wait_for_log("refused POST /record/start: a page of another site", std::chrono::seconds(10)))
      << voxl_->log();
  // curl -d sends a form's Content-Type; a script is not a page.
  const HttpAnswer script = http_request(
      port, {"POST", "/input", {{"Content-Type", "application/x-www-form-urlencoded"}}}, move);
  EXPECT_EQ(script.status, 200) << script.body;
  // No body and no header at all, as `curl -X POST` sends.
  const HttpAnswer started = http_request(port, {"POST", "/record/start", {}});
  ASSERT_EQ(started.status, 200) << started.body;
  EXPECT_NE(started.body.find("\"id\""), std::string::npos) << started.body;
  // The server's own page, which the browser marks same-origin.
  const std::string own = "http://" + local_host();
  const HttpAnswer page = http_request(port, {"POST", "/input", {{"Origin", own}, {"Sec-Fetch-Site", "same-origin"}}},
                                       move);
  EXPECT_EQ(page.status, 200) << page.body;
}

TEST_F(AccessTest, ListedOriginsMayAct) {
  start_voxl({"--allowed-origins=https://dashboard.example"});
  const HttpAnswer a =
      http_request(voxl_->port(),
                   {"POST", "/input", {{"Origin", "https://dashboard.example"}, {"Sec-Fetch-Site", "cross-site"}}},
                   R"({"type":"move","x":2,"y":2})");
  EXPECT_EQ(a.status, 200) << a.body;
}

TEST_F(AccessTest, WsCheckSaysWhyTheStreamIsRefused) {
  start_everywhere({"--auth-token-file=" + write_token_file()});
  const uint16_t port = voxl_->port();
  auto check = [&](std::vector<std::pair<std::string, std::string>> headers) {
    return http_request(port, {"POST", "/ws-check", std::move(headers)});
  };
  // Accepted: the page's own origin and the token.
  const HttpAnswer ok = check({{"Origin", "http://" + local_host()}, {"Authorization", kBearer}});
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_NE(ok.body.find("\"ok\":true"), std::string::npos) << ok.body;
  // A proxy that sends its upstream's Host: the page's origin is not it.
  const HttpAnswer proxied = check({{"Origin", "https://desk.example:8443"}, {"Authorization", kBearer}});
  EXPECT_EQ(proxied.status, 403);
  EXPECT_NE(proxied.body.find("\"refused\":\"origin\""), std::string::npos) << proxied.body;
  EXPECT_NE(proxied.body.find("https://desk.example:8443"), std::string::npos) << proxied.body;
  EXPECT_NE(proxied.body.find("proxy_set_header Host $host"), std::string::npos) << proxied.body;
  EXPECT_NE(proxied.body.find("--allowed-origins=https://desk.example:8443"), std::string::npos) << proxied.body;
  // A wrong token: 401 without a challenge (a browser has no dialog for one).
  const HttpAnswer wrong = check({{"Origin", "http://" + local_host()}, {"Authorization", "Bearer wrong-token-0123456789"}});
  EXPECT_EQ(wrong.status, 401);
  EXPECT_TRUE(wrong.header("www-authenticate").empty()) << wrong.header("www-authenticate");
  EXPECT_NE(wrong.body.find("\"refused\":\"credentials\""), std::string::npos) << wrong.body;
  // A name the server does not answer to.
  const HttpAnswer host = check({{"Host", "desk.example"}, {"Authorization", kBearer}});
  EXPECT_EQ(host.status, 403);
  EXPECT_NE(host.body.find("\"refused\":\"host\""), std::string::npos) << host.body;
  // Only POST, which browsers send with an Origin.
  EXPECT_EQ(get("/ws-check", {{"Authorization", kBearer}}).status, 405);
}

}  // namespace
}  // namespace voxl::testing
