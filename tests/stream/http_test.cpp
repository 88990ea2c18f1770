// voxl's HTTP side over a real socket: the embedded client with compression
// and caching, errors for what it does not serve, and the access rules
// (Host, Origin, basic auth) for pages and the WebSocket alike.
#include <gtest/gtest.h>

#include "http_client.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

class HttpTest : public VoxlFixture {
 protected:
  HttpAnswer get(const std::string& target, std::vector<std::pair<std::string, std::string>> headers = {}) {
    return http_request(voxl_->port(), {"GET", target, std::move(headers)});
  }
};

TEST_F(HttpTest, ServesTheClientPage) {
  start_voxl();
  const HttpAnswer page = get("/");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.header("content-type").rfind("text/html", 0), 0u) << page.header("content-type");
  EXPECT_NE(page.body.find("app.js"), std::string::npos);
}

TEST_F(HttpTest, ScriptIsCompressedAndRevalidated) {
  start_voxl();
  const HttpAnswer script = get("/app.js", {{"Accept-Encoding", "gzip, deflate"}});
  ASSERT_EQ(script.status, 200);
  EXPECT_EQ(script.header("content-encoding"), "gzip");
  ASSERT_GE(script.body.size(), 2u);
  EXPECT_EQ(uint8_t(script.body[0]), 0x1f);  // gzip's magic number
  EXPECT_EQ(uint8_t(script.body[1]), 0x8b);
  const std::string etag = script.header("etag");
  ASSERT_FALSE(etag.empty());

  const HttpAnswer again = get("/app.js", {{"Accept-Encoding", "gzip"}, {"If-None-Match", etag}});
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
}

TEST_F(HttpTest, UnknownPathAndWrongMethodAreErrors) {
  start_voxl();
  EXPECT_EQ(get("/nope").status, 404);
  const HttpAnswer post = http_request(voxl_->port(), {"POST", "/", {}});
  EXPECT_EQ(post.status, 405);
  EXPECT_NE(post.header("allow").find("GET"), std::string::npos);
}

TEST_F(HttpTest, ForeignHostNameIsRefused) {
  // A page of evil.example that rebinds its name to 127.0.0.1 sends this
  // Host; a server on loopback must not answer it.
  start_voxl();
  EXPECT_EQ(get("/", {{"Host", "evil.example"}}).status, 403);
  EXPECT_EQ(get("/", {{"Host", "localhost:" + std::to_string(voxl_->port())}}).status, 200);
}

TEST_F(HttpTest, WebSocketFromForeignOriginIsRefused) {
  start_voxl();
  ClientOptions foreign = client_options();
  foreign.origin = "http://evil.example";
  EXPECT_EQ(handshake_status(foreign), 403);

  ClientOptions same = client_options();
  same.origin = "http://127.0.0.1:" + std::to_string(voxl_->port());
  EXPECT_EQ(handshake_status(same), 101);
}

TEST_F(HttpTest, BasicAuthGuardsPagesAndWebSocket) {
  start_voxl({"--enable-basic-auth", "--basic-auth-password=s3cret"});
  const HttpAnswer anonymous = get("/");
  EXPECT_EQ(anonymous.status, 401);
  EXPECT_EQ(anonymous.header("www-authenticate").rfind("Basic", 0), 0u) << anonymous.header("www-authenticate");
  EXPECT_EQ(get("/", {{"Authorization", basic_authorization("voxl", "wrong")}}).status, 401);
  EXPECT_EQ(get("/", {{"Authorization", basic_authorization("voxl", "s3cret")}}).status, 200);

  EXPECT_EQ(handshake_status(client_options()), 401);
  ClientOptions with_password = client_options();
  with_password.authorization = basic_authorization("voxl", "s3cret");
  EXPECT_EQ(handshake_status(with_password), 101);
}

}  // namespace
}  // namespace voxl::testing
