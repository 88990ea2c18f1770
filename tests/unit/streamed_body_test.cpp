// StreamedBody on Beast's in-memory stream: the pieces of a source reach
// the client intact, with a Content-Length or chunked, each pulled only
// once the one before was written; an error or a wrong length cuts the body
// off; HEAD never pulls; a delivery after abort() does nothing.
#include "net/streamed_body.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <memory>
#include <string>
#include <vector>

namespace voxl::net {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

using Stream = beast::test::stream;

// Gives `pieces` one per pull, later on the loop (as a read off the loop
// would), then `error` if set. Each piece lives in one buffer that the next
// pull overwrites, so a writer that kept an old piece would send garbage.
class ScriptedSource : public BodySource, public std::enable_shared_from_this<ScriptedSource> {
 public:
  ScriptedSource(asio::io_context& io, Stream& client, std::vector<std::string> pieces, std::string error = "")
      : io_(io), client_(client), pieces_(std::move(pieces)), error_(std::move(error)) {}

  void pull(Deliver deliver) override {
    ++pulls;
    // What was delivered before must be at the client by now.
    if (next_ > 0 && client_.str().find(pieces_[next_ - 1]) == std::string::npos) pulled_early = true;
    asio::post(io_, [self = shared_from_this(), deliver = std::move(deliver)] {
      if (self->next_ == self->pieces_.size()) return deliver({}, true, self->error_);
      self->current_ = self->pieces_[self->next_++];
      const bool last = self->next_ == self->pieces_.size() && self->error_.empty();
      deliver(self->current_, last, "");
      self->current_.assign(self->current_.size(), '#');  // the bytes are only valid until the next pull
    });
  }

  int pulls = 0;
  bool pulled_early = false;

 private:
  asio::io_context& io_;
  Stream& client_;
  std::vector<std::string> pieces_;
  std::string error_;
  size_t next_ = 0;
  std::string current_;
};

struct Outcome {
  bool finished = false;
  StreamEnd end = StreamEnd::kComplete;
  std::string why;
};

class StreamedBodyTest : public ::testing::Test {
 protected:
  StreamedBodyTest() : client_(ioc_), server_(ioc_) { client_.connect(server_); }

  // Streams `source` as the answer to a request of `version`; runs the loop
  // until nothing is left to do. Like the session, closes the connection
  // unless the body ended well.
  std::shared_ptr<StreamedBody<Stream>> stream(std::shared_ptr<BodySource> source, std::optional<uint64_t> length,
                                               unsigned version = 11, bool head = false, Stream* on = nullptr) {
    Stream& server = on ? *on : server_;
    http::response<http::buffer_body> header{http::status::ok, version};
    header.set(http::field::content_type, "application/octet-stream");
    header.keep_alive(true);
    StreamedBody<Stream>::Hooks hooks;
    hooks.run = [](const char*, const std::function<void()>& step) { step(); };
    hooks.before_write = [this] { ++writes_; };
    hooks.finished = [this](StreamEnd end, const std::string& why) {
      outcome_ = {true, end, why};
      if (end != StreamEnd::kComplete) server_.close();
    };
    auto body = std::make_shared<StreamedBody<Stream>>(server, std::move(header), std::move(source), length, head,
                                                       keep_, std::move(hooks));
    body->start();
    ioc_.run();
    ioc_.restart();
    return body;
  }

  // Parses what the client received; `ec` says how the parse ended.
  http::response<http::string_body> received(beast::error_code& ec, bool head = false) {
    http::response_parser<http::string_body> parser;
    if (head) parser.skip(true);
    beast::flat_buffer buf;
    http::read(client_, buf, parser, ec);
    return parser.release();
  }

  asio::io_context ioc_;
  Stream client_;
  Stream server_;
  std::shared_ptr<int> keep_ = std::make_shared<int>(0);  // stands for the session
  Outcome outcome_;
  int writes_ = 0;
};

TEST_F(StreamedBodyTest, KnownLengthArrivesIntactInSeveralPieces) {
  auto source = std::make_shared<ScriptedSource>(ioc_, client_, std::vector<std::string>{"hello, ", "streamed ", "world"});
  auto body = stream(source, 21);
  ASSERT_TRUE(outcome_.finished);
  EXPECT_EQ(outcome_.end, StreamEnd::kComplete) << outcome_.why;
  EXPECT_FALSE(body->need_eof());
  EXPECT_EQ(source->pulls, 3);
  EXPECT_FALSE(source->pulled_early);
  EXPECT_EQ(writes_, 4);  // the header, then each piece: the timeout is re-armed for each
  EXPECT_EQ(client_.str().find("chunked"), std::string::npos);
  beast::error_code ec;
  const auto res = received(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(res[http::field::content_length], "21");
  EXPECT_EQ(res.body(), "hello, streamed world");
}

TEST_F(StreamedBodyTest, UnknownLengthIsChunkedAndDecodes) {
  auto source = std::make_shared<ScriptedSource>(ioc_, client_, std::vector<std::string>{"one ", "two ", "three"});
  auto body = stream(source, std::nullopt);
  EXPECT_EQ(outcome_.end, StreamEnd::kComplete) << outcome_.why;
  EXPECT_FALSE(body->need_eof());
  EXPECT_FALSE(source->pulled_early);
  const std::string raw(client_.str());
  EXPECT_NE(raw.find("Transfer-Encoding: chunked"), std::string::npos) << raw;
  EXPECT_TRUE(raw.ends_with("0\r\n\r\n")) << raw;
  beast::error_code ec;
  const auto res = received(ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_TRUE(res.chunked());
  EXPECT_EQ(res.body(), "one two three");
}

TEST_F(StreamedBodyTest, UnknownLengthForHttp10EndsWithTheConnection) {
  auto source = std::make_shared<ScriptedSource>(ioc_, client_, std::vector<std::string>{"old ", "client"});
  auto body = stream(source, std::nullopt, 10);
  EXPECT_EQ(outcome_.end, StreamEnd::kComplete) << outcome_.why;
  EXPECT_TRUE(body->need_eof());
  const std::string raw(client_.str());
  EXPECT_EQ(raw.find("chunked"), std::string::npos) << raw;
  EXPECT_EQ(raw.find("Content-Length"), std::string::npos) << raw;
  EXPECT_TRUE(raw.ends_with("\r\n\r\nold client")) << raw;
}

TEST_F(StreamedBodyTest, ASourceErrorMidwayCutsTheBodyOff) {
  auto source =
      std::make_shared<ScriptedSource>(ioc_, client_, std::vector<std::string>{"first ", "second "}, "disk on fire");
  stream(source, 100);
  ASSERT_TRUE(outcome_.finished);
  EXPECT_EQ(outcome_.end, StreamEnd::kSourceFailed);
  EXPECT_EQ(outcome_.why, "disk on fire");
  beast::error_code ec;
  const auto res = received(ec);
  EXPECT_EQ(ec, http::error::partial_message) << ec.message();
  EXPECT_EQ(client_.str().find("#"), std::string::npos);
}

TEST_F(StreamedBodyTest, AChunkedBodyCutOffHasNoLastChunk) {
  auto source = std::make_shared<ScriptedSource>(ioc_, client_, std::vector<std::string>{"first "}, "gone");
  stream(source, std::nullopt);
  EXPECT_EQ(outcome_.end, StreamEnd::kSourceFailed);
  EXPECT_FALSE(client_.str().ends_with("0\r\n\r\n")) << client_.str();
  beast::error_code ec;
  received(ec);
  EXPECT_EQ(ec, http::error::partial_message) << ec.message();
}

TEST_F(StreamedBodyTest, MoreOrFewerBytesThanAnnouncedCutTheBodyOff) {
  auto more = std::make_shared<ScriptedSource>(ioc_, client_, std::vector<std::string>{"12345", "67890"});
  stream(more, 8);
  EXPECT_EQ(outcome_.end, StreamEnd::kSourceFailed);
  EXPECT_NE(outcome_.why.find("8 were announced"), std::string::npos) << outcome_.why;
  EXPECT_EQ(client_.str().find("67890"), std::string::npos);  // never a wrong body
}

TEST_F(StreamedBodyTest, FewerBytesThanAnnouncedCutTheBodyOff) {
  auto fewer = std::make_shared<ScriptedSource>(ioc_, client_, std::vector<std::string>{"12345"});
  stream(fewer, 8);
  EXPECT_EQ(outcome_.end, StreamEnd::kSourceFailed);
  beast::error_code ec;
  received(ec);
  EXPECT_EQ(ec, http::error::partial_message) << ec.message();
}

TEST_F(StreamedBodyTest, HeadSendsTheHeaderAloneAndNeverPulls) {
  auto source = std::make_shared<ScriptedSource>(ioc_, client_, std::vector<std::string>{"never sent"});
  auto body = stream(source, 10, 11, true);
  EXPECT_EQ(outcome_.end, StreamEnd::kComplete) << outcome_.why;
  EXPECT_FALSE(body->need_eof());
  EXPECT_EQ(source->pulls, 0);
  const std::string raw(client_.str());
  EXPECT_NE(raw.find("Content-Length: 10"), std::string::npos) << raw;
  EXPECT_TRUE(raw.ends_with("\r\n\r\n")) << raw;
  EXPECT_EQ(source.use_count(), 1);  // let go of at the end
}

// Never delivers by itself: the test calls the held delivery.
class HeldSource : public BodySource {
 public:
  void pull(Deliver deliver) override { held = std::move(deliver); }
  Deliver held;
};

TEST_F(StreamedBodyTest, ADeliveryAfterAbortDoesNothing) {
  auto source = std::make_shared<HeldSource>();
  auto body = stream(source, std::nullopt);
  ASSERT_TRUE(source->held);  // the header is out, the first piece asked for
  EXPECT_FALSE(outcome_.finished);
  body->abort();
  EXPECT_EQ(source.use_count(), 1);  // let go of
  const size_t before = client_.str().size();
  source->held("late", false, "");
  ioc_.run();
  EXPECT_EQ(client_.str().size(), before);
  EXPECT_FALSE(outcome_.finished);
}

TEST_F(StreamedBodyTest, ADeliveryAfterTheWriterIsGoneDoesNothing) {
  auto source = std::make_shared<HeldSource>();
  stream(source, std::nullopt).reset();
  ASSERT_TRUE(source->held);
  source->held("late", false, "");
  ioc_.run();
  EXPECT_FALSE(outcome_.finished);
}

TEST_F(StreamedBodyTest, AClientThatLeftEndsTheBodyAsAFailedWrite) {
  beast::test::fail_count fails(2);  // the header goes out, the first piece does not
  Stream server(ioc_, fails);
  Stream client(ioc_);
  client.connect(server);
  auto source = std::make_shared<HeldSource>();
  auto body = stream(source, std::nullopt, 11, false, &server);
  ASSERT_TRUE(source->held);
  source->held("anyone there?", false, "");
  ioc_.run();
  ASSERT_TRUE(outcome_.finished);
  EXPECT_EQ(outcome_.end, StreamEnd::kWriteFailed);
}

TEST_F(StreamedBodyTest, ASecondDeliveryForOnePullIsIgnored) {
  auto source = std::make_shared<HeldSource>();
  auto body = stream(source, 4);
  ASSERT_TRUE(source->held);
  auto first = source->held;
  first("ab", false, "");
  first("zz", false, "");
  ioc_.run();
  ioc_.restart();
  source->held("cd", true, "");
  ioc_.run();
  EXPECT_EQ(outcome_.end, StreamEnd::kComplete) << outcome_.why;
  beast::error_code ec;
  EXPECT_EQ(received(ec).body(), "abcd");
  EXPECT_FALSE(ec) << ec.message();
}

}  // namespace
}  // namespace voxl::net
