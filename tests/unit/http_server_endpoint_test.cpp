// The server's endpoints on a real loopback socket: per-endpoint body
// limits (413), the request's headers and address, streamed answers (with
// a length, chunked, HTTP/1.0, HEAD, cut off) and keep-alive after them.
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <spdlog/sinks/null_sink.h>

#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "net/server.h"
#include "stream/fanout/hub.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Gives `pieces` one per pull, later on the loop; then `error` if set.
class PieceSource : public BodySource, public std::enable_shared_from_this<PieceSource> {
 public:
  PieceSource(asio::io_context& io, std::vector<std::string> pieces, std::string error, std::atomic<int>& pulls,
              std::atomic<int>& alive)
      : io_(io), pieces_(std::move(pieces)), error_(std::move(error)), pulls_(pulls), alive_(alive) {
    ++alive_;
  }
  ~PieceSource() override { --alive_; }

  void pull(Deliver deliver) override {
    ++pulls_;
    asio::post(io_, [self = shared_from_this(), deliver = std::move(deliver)] {
      if (self->next_ == self->pieces_.size()) return deliver({}, true, self->error_);
      self->current_ = self->pieces_[self->next_++];
      deliver(self->current_, self->next_ == self->pieces_.size() && self->error_.empty(), "");
    });
  }

 private:
  asio::io_context& io_;
  std::vector<std::string> pieces_;
  std::string error_;
  std::atomic<int>& pulls_;
  std::atomic<int>& alive_;
  size_t next_ = 0;
  std::string current_;
};

// Holds its first delivery forever (a piece that takes ages to make).
class StuckSource : public BodySource {
 public:
  explicit StuckSource(std::atomic<int>& alive) : alive_(alive) { ++alive_; }
  ~StuckSource() override { --alive_; }
  void pull(Deliver deliver) override { held_ = std::move(deliver); }

 private:
  std::atomic<int>& alive_;
  Deliver held_;
};

// A client on its own io_context; every wait is bounded.
class Client {
 public:
  explicit Client(uint16_t port) : socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }

  void send(const std::string& raw) { asio::write(socket_, asio::buffer(raw)); }

  http::response<http::string_body> response(beast::error_code& ec, bool head = false) {
    http::response_parser<http::string_body> parser;
    parser.body_limit(16 * 1024 * 1024);
    if (head) parser.skip(true);
    ec = asio::error::timed_out;
    http::async_read(socket_, buffer_, parser, [&ec](beast::error_code e, size_t) { ec = e; });
    settle();
    return parser.release();
  }

  // True when the server closed the connection (EOF or a reset) with
  // nothing more to read, within 10 s. On the socket itself: whatever the
  // parser read before.
  bool closed() {
    pollfd p{socket_.native_handle(), POLLIN, 0};
    if (::poll(&p, 1, 10000) != 1) return false;
    char byte = 0;
    const ssize_t n = ::recv(socket_.native_handle(), &byte, 1, MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }

 private:
  void settle() {
    io_.restart();
    io_.run_for(10s);
    if (!io_.stopped()) {
      beast::error_code ignored;
      socket_.cancel(ignored);
      io_.restart();
      io_.run();
    }
  }

  asio::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

class HttpServerEndpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServerOptions o;
    o.addr = "127.0.0.1";
    o.port = 0;
    o.settings.endpoints["/small"] = {{"POST"}, [this](const EndpointRequest& call, ReplyFn reply) -> CancelFn {
                               EndpointReply r;
                               r.body = std::to_string(call.body.size());
                               std::lock_guard lock(mutex_);
                               last_ = call;
                               reply(std::move(r));
                               return nullptr;
                             }};
    o.settings.endpoints["/small"].max_body = 100;
    o.settings.endpoints["/stream"] = {{"GET", "HEAD"}, [this](const EndpointRequest& call, ReplyFn reply) -> CancelFn {
                                EndpointReply r;
                                r.content_type = "text/plain";
                                const bool chunked = call.query == "chunked";
                                const bool broken = call.query == "broken";
                                r.source = std::make_shared<PieceSource>(
                                    io_, std::vector<std::string>{"alpha ", "beta ", "gamma"},
                                    broken ? "the disk went away" : "", pulls_, alive_);
                                if (!chunked) r.content_length = broken ? 1000 : 16;
                                reply(std::move(r));
                                return nullptr;
                              }};
    o.settings.endpoints["/stuck"] = {{"GET"}, [this](const EndpointRequest&, ReplyFn reply) -> CancelFn {
                               EndpointReply r;
                               r.source = std::make_shared<StuckSource>(alive_);
                               reply(std::move(r));
                               return nullptr;
                             }};
    server_ = std::make_unique<Server>(io_, o, hub_,
                                       std::make_shared<spdlog::logger>(
                                           "test", std::make_shared<spdlog::sinks::null_sink_mt>()));
    port_ = server_->port();
    host_ = "Host: 127.0.0.1:" + std::to_string(port_) + "\r\n";
    loop_ = std::thread([this] { io_.run(); });
  }

  void TearDown() override {
    asio::post(io_, [this] { server_->stop(); });
    loop_.join();  // returns once every session has ended
    server_.reset();
  }

  // Waits (bounded) until no source is left.
  bool sources_gone() {
    for (int i = 0; i < 500 && alive_ > 0; ++i) std::this_thread::sleep_for(10ms);
    return alive_ == 0;
  }

  stream::Hub hub_{{.set_active = [](bool) {}, .request_keyframe = [](int) {}, .set_paused = [](bool) {},
                    .set_target_kbps = [](int, int) {}}};
  asio::io_context io_;
  std::unique_ptr<Server> server_;
  std::thread loop_;
  uint16_t port_ = 0;
  std::string host_;
  std::atomic<int> pulls_{0};
  std::atomic<int> alive_{0};
  std::mutex mutex_;
  EndpointRequest last_;
};

TEST_F(HttpServerEndpointTest, ABodyWithinTheEndpointsLimitIsTakenWithHeadersAndAddress) {
  Client c(port_);
  c.send("POST /small?x=1 HTTP/1.1\r\n" + host_ + "X-Custom-Thing: Some Value\r\nContent-Length: 100\r\n\r\n" +
         std::string(100, 'b'));
  beast::error_code ec;
  const auto res = c.response(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_EQ(res.body(), "100");
  std::lock_guard lock(mutex_);
  EXPECT_EQ(last_.remote_address, "127.0.0.1");
  bool found = false;
  for (const auto& [name, value] : last_.headers) {
    EXPECT_EQ(name, [n = name] {
      std::string lower = n;
      for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
      return lower;
    }());
    if (name == "x-custom-thing") found = value == "Some Value";
  }
  EXPECT_TRUE(found);
}

TEST_F(HttpServerEndpointTest, ABodyOverTheEndpointsLimitIs413AndTheConnectionCloses) {
  Client c(port_);
  c.send("POST /small HTTP/1.1\r\n" + host_ + "Content-Length: 101\r\n\r\n" + std::string(101, 'b'));
  beast::error_code ec;
  const auto res = c.response(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(res.result_int(), 413);
  EXPECT_EQ(res[http::field::content_type], "application/json");
  EXPECT_NE(res.body().find("100 bytes"), std::string::npos) << res.body();
  EXPECT_NE(res.body().find("/small"), std::string::npos) << res.body();
  EXPECT_FALSE(res.keep_alive());
  EXPECT_TRUE(c.closed());
  std::lock_guard lock(mutex_);
  EXPECT_TRUE(last_.path.empty());  // the endpoint never saw it
}

TEST_F(HttpServerEndpointTest, AChunkedBodyOverTheLimitIs413Too) {
  Client c(port_);
  c.send("POST /small HTTP/1.1\r\n" + host_ + "Transfer-Encoding: chunked\r\n\r\n40\r\n" + std::string(64, 'a') +
         "\r\n40\r\n" + std::string(64, 'a') + "\r\n0\r\n\r\n");
  beast::error_code ec;
  const auto res = c.response(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(res.result_int(), 413);
  EXPECT_TRUE(c.closed());
}

TEST_F(HttpServerEndpointTest, OtherPathsKeepTheDefaultLimit) {
  Client c(port_);
  c.send("POST /stats HTTP/1.1\r\n" + host_ + "Content-Length: 70000\r\n\r\n");
  beast::error_code ec;
  const auto res = c.response(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(res.result_int(), 413);
  EXPECT_NE(res.body().find("65536 bytes"), std::string::npos) << res.body();
}

TEST_F(HttpServerEndpointTest, AStreamedAnswerWithALengthKeepsTheConnection) {
  Client c(port_);
  beast::error_code ec;
  for (int i = 0; i < 2; ++i) {
    c.send("GET /stream HTTP/1.1\r\n" + host_ + "\r\n");
    const auto res = c.response(ec);
    ASSERT_FALSE(ec) << ec.message();
    EXPECT_EQ(res.result_int(), 200);
    EXPECT_EQ(res[http::field::content_length], "16");
    EXPECT_EQ(res[http::field::content_type], "text/plain");
    EXPECT_EQ(res.body(), "alpha beta gamma");
  }
  c.send("POST /small HTTP/1.1\r\n" + host_ + "Content-Length: 3\r\n\r\nabc");
  const auto after = c.response(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(after.body(), "3");
  EXPECT_TRUE(sources_gone());
}

TEST_F(HttpServerEndpointTest, AStreamedAnswerWithoutALengthIsChunkedAndKeepsTheConnection) {
  Client c(port_);
  // Pipelined: the second request arrives while the first is streamed.
  c.send("GET /stream?chunked HTTP/1.1\r\n" + host_ + "\r\nGET /stream HTTP/1.1\r\n" + host_ + "\r\n");
  beast::error_code ec;
  const auto first = c.response(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_TRUE(first.chunked());
  EXPECT_EQ(first.body(), "alpha beta gamma");
  const auto second = c.response(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(second.body(), "alpha beta gamma");
}

TEST_F(HttpServerEndpointTest, AnHttp10ClientGetsTheBodyUntilTheConnectionCloses) {
  Client c(port_);
  c.send("GET /stream?chunked HTTP/1.0\r\n" + host_ + "Connection: keep-alive\r\n\r\n");
  beast::error_code ec;
  const auto res = c.response(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_FALSE(res.chunked());
  EXPECT_EQ(res.body(), "alpha beta gamma");
  EXPECT_TRUE(c.closed());
}

TEST_F(HttpServerEndpointTest, HeadGetsTheHeaderAndNeverPulls) {
  Client c(port_);
  c.send("HEAD /stream HTTP/1.1\r\n" + host_ + "\r\n");
  beast::error_code ec;
  const auto res = c.response(ec, true);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(res[http::field::content_length], "16");
  EXPECT_EQ(pulls_, 0);
  c.send("GET /stream HTTP/1.1\r\n" + host_ + "\r\n");  // the connection is still good
  EXPECT_EQ(c.response(ec).body(), "alpha beta gamma");
  EXPECT_FALSE(ec) << ec.message();
}

TEST_F(HttpServerEndpointTest, ASourceErrorDropsTheConnection) {
  Client c(port_);
  c.send("GET /stream?broken HTTP/1.1\r\n" + host_ + "\r\n");
  beast::error_code ec;
  const auto res = c.response(ec);
  EXPECT_EQ(ec, http::error::partial_message) << ec.message();
  EXPECT_TRUE(sources_gone());
}

TEST_F(HttpServerEndpointTest, AClientThatLeavesWhileAPieceIsMadeDropsTheSource) {
  {
    Client c(port_);
    c.send("GET /stuck HTTP/1.1\r\n" + host_ + "\r\n");
    for (int i = 0; i < 500 && alive_ == 0; ++i) std::this_thread::sleep_for(10ms);
    ASSERT_EQ(alive_, 1);
  }
  EXPECT_TRUE(sources_gone());
}

}  // namespace
}  // namespace voxl::net
