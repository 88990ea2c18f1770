// HttpExchange over a recording transport: what is read, written, watched,
// cancelled and closed, in which order, with no socket.
#include "net/http_exchange.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "recording_http_transport.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

using testing::RecordingHttpTransport;
using State = HttpExchange::State;
using Read = RecordingHttpTransport::Read;
using Write = RecordingHttpTransport::Write;

// A handler that keeps its reply function for the test to call, and counts
// the cancellations.
struct HeldEndpoint {
  ReplyFn reply;
  int calls = 0, cancels = 0;
  std::optional<EndpointReply> at_once;  // answered inside handle()
  bool throws = false;

  Endpoint endpoint(size_t max_body = 64 * 1024) {
    Endpoint e;
    e.methods = {"GET", "POST"};
    e.max_body = max_body;
    e.handle = [this](EndpointRequest&, ReplyFn r) -> CancelFn {
      ++calls;
      if (throws) throw std::runtime_error("the handler failed");
      if (at_once) r(*at_once);
      else reply = std::move(r);
      return [this] { ++cancels; };
    };
    return e;
  }
};

// A body source that is never pulled here: the transport streams it.
struct NoSource : BodySource {
  void pull(Deliver) override {}
};

EndpointReply text(int status, std::string body) {
  EndpointReply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

EndpointReply streamed() {
  EndpointReply r = text(200, "");
  r.source = std::make_shared<NoSource>();
  return r;
}

class HttpExchangeTest : public ::testing::Test {
 protected:
  HttpExchangeTest() {
    ctx_.log = std::make_shared<spdlog::logger>("http-exchange-test", std::make_shared<spdlog::sinks::null_sink_mt>());
    ctx_.settings.endpoints["/wait"] = wait_.endpoint();
    ctx_.settings.endpoints["/upload"] = upload_.endpoint(10);
  }
  ~HttpExchangeTest() override {
    if (t_) {
      EXPECT_EQ(t_->violations, std::vector<std::string>{});
    }
  }

  RecordingHttpTransport& open(std::optional<OverCap> over_cap = {}) {
    if (t_) {
      EXPECT_EQ(t_->violations, std::vector<std::string>{});
    }
    t_ = std::make_unique<RecordingHttpTransport>(ctx_, shared_, std::move(over_cap));
    t_->exchange.start();
    return *t_;
  }

  // Reads a request for `path` whole and routes it to its endpoint.
  void call(const std::string& path, bool keep_alive = true, bool head = false) {
    t_->header_arrives(path);
    t_->next_route.kind = RouteOutcome::Kind::kEndpoint;
    t_->next_route.endpoint = &ctx_.settings.endpoints.at(path);
    t_->body_arrives(keep_alive, head);
  }

  SessionContext ctx_;
  SessionShared shared_;
  HeldEndpoint wait_, upload_;
  std::unique_ptr<RecordingHttpTransport> t_;
};

TEST_F(HttpExchangeTest, AKeptAliveConnectionReadsTheNextRequestAfterEachAnswer) {
  auto& t = open();
  EXPECT_EQ(t.read, Read::kHeader);
  EXPECT_EQ(t.read_limit, HttpExchange::kReadTimeout);
  t.header_arrives("/");
  EXPECT_EQ(t.read, Read::kBody);
  EXPECT_EQ(t.max_body, HttpExchange::kBodyLimit);
  EXPECT_EQ(t.read_limit, HttpExchange::kReadTimeout);  // the body gets its own clock
  t.body_arrives();
  EXPECT_EQ(t.write, Write::kRouted);
  EXPECT_EQ(t.exchange.state(), State::kWriting);
  t.written();
  EXPECT_EQ(t.read, Read::kHeader);
  EXPECT_EQ(t.calls, (std::vector<std::string>{"read_header", "read_body", "route", "write_routed", "read_header"}));
}

TEST_F(HttpExchangeTest, AnAnswerThatEndsTheConnectionClosesIt) {
  auto& t = open();
  t.header_arrives("/");
  t.body_arrives(/*keep_alive=*/false);
  t.written();
  EXPECT_TRUE(t.closed);
  EXPECT_EQ(t.exchange.state(), State::kClosing);
  EXPECT_EQ(t.read, Read::kNone);
}

TEST_F(HttpExchangeTest, ABodyLongerThanItsEndpointTakesIsRefusedBeforeItIsRead) {
  auto& t = open();
  t.header_arrives("/upload", 11);
  EXPECT_EQ(t.write, Write::kReply);
  EXPECT_EQ(t.reply.status, 413);
  EXPECT_NE(t.reply.body.find("larger than the 10 bytes /upload takes"), std::string::npos) << t.reply.body;
  EXPECT_FALSE(t.framing.keep_alive);
  EXPECT_EQ(upload_.calls, 0);
  t.written();
  EXPECT_TRUE(t.closed);
}

TEST_F(HttpExchangeTest, AChunkedBodyThatCrossesTheLimitIsRefused) {
  auto& t = open();
  t.header_arrives("/somewhere");
  t.read_fails(ReadFailure::kBodyTooLarge);
  EXPECT_EQ(t.reply.status, 413);
  EXPECT_NE(t.reply.body.find("65536 bytes this server takes"), std::string::npos) << t.reply.body;
  t.written();
  EXPECT_TRUE(t.closed);
}

TEST_F(HttpExchangeTest, WhatIsNotHttpIsAnswered400AndTheConnectionCloses) {
  auto& t = open();
  t.read_fails(ReadFailure::kMalformed, "bad method");
  EXPECT_EQ(t.write, Write::kBadRequest);
  EXPECT_EQ(t.bad_request, "bad method");
  t.written();
  EXPECT_TRUE(t.closed);
}

TEST_F(HttpExchangeTest, AClientThatLeavesBetweenRequestsIsLetGo) {
  auto& t = open();
  t.read_fails(ReadFailure::kEndOfStream);
  EXPECT_TRUE(t.closed);
  auto& u = open();
  u.header_arrives("/");
  u.read_fails(ReadFailure::kGone, "timeout");
  EXPECT_EQ(u.exchange.state(), State::kClosed);
  EXPECT_EQ(u.write, Write::kNone);
  EXPECT_FALSE(u.closed);
}

TEST_F(HttpExchangeTest, APendingEndpointsAnswerWaitsForTheWatchToEnd) {
  auto& t = open();
  call("/wait");
  EXPECT_EQ(t.exchange.state(), State::kPending);
  EXPECT_EQ(t.read, Read::kWatch);
  wait_.reply(text(200, "settled"));
  // Not written while the watch's read is in flight: cancelled first.
  EXPECT_EQ(t.write, Write::kNone);
  EXPECT_TRUE(t.cancel_asked);
  EXPECT_EQ(t.exchange.state(), State::kAnswerHeld);
  t.watch_ends(WatchEnd::kCancelled);
  EXPECT_EQ(t.write, Write::kReply);
  EXPECT_EQ(t.reply.body, "settled");
  t.written();
  EXPECT_EQ(t.read, Read::kHeader);
  EXPECT_EQ(wait_.cancels, 0);
}

TEST_F(HttpExchangeTest, AnEndpointThatAnswersAtOnceIsWrittenWithNoWatch) {
  auto& t = open();
  wait_.at_once = text(200, "now");
  call("/wait");
  EXPECT_EQ(t.write, Write::kReply);
  EXPECT_EQ(t.read, Read::kNone);
  EXPECT_EQ(t.reply.body, "now");
}

TEST_F(HttpExchangeTest, AClientThatHangsUpWhilePendingCancelsTheEndpoint) {
  auto& t = open();
  call("/wait");
  t.watch_ends(WatchEnd::kGone);
  EXPECT_EQ(wait_.cancels, 1);
  EXPECT_TRUE(t.aborted);
  EXPECT_EQ(t.exchange.state(), State::kClosed);
  wait_.reply(text(200, "for nobody"));  // late: dropped
  EXPECT_EQ(t.write, Write::kNone);
  EXPECT_EQ(wait_.cancels, 1);
}

TEST_F(HttpExchangeTest, APipelinedRequestIsKeptUpToTheHeaderLimit) {
  auto& t = open();
  call("/wait");
  t.watch_ends(WatchEnd::kData, 100);
  EXPECT_EQ(t.read, Read::kWatch);  // reads on
  t.watch_ends(WatchEnd::kData, HttpExchange::kHeaderLimit);
  EXPECT_TRUE(t.aborted);
  EXPECT_EQ(wait_.cancels, 1);
}

TEST_F(HttpExchangeTest, AHandlerThatThrowsIsAnswered500AndTheConnectionCloses) {
  auto& t = open();
  wait_.throws = true;
  call("/wait");
  EXPECT_EQ(t.reply.status, 500);
  EXPECT_FALSE(t.framing.keep_alive);
  t.written();
  EXPECT_TRUE(t.closed);
}

TEST_F(HttpExchangeTest, ARoutingThatThrowsIsAnswered400) {
  auto& t = open();
  t.header_arrives("/");
  t.route_throws = true;
  t.body_arrives();
  EXPECT_EQ(t.reply.status, 400);
  EXPECT_FALSE(t.framing.keep_alive);
}

TEST_F(HttpExchangeTest, AConnectionOverACapIsAnswered503WhateverItAsks) {
  auto& t = open(OverCap{"--max-connections", "too many connections"});
  EXPECT_EQ(t.read_limit, HttpExchange::kRefusalReadTimeout);
  t.header_arrives("/upload");
  EXPECT_EQ(t.max_body, HttpExchange::kBodyLimit);  // not the endpoint's
  EXPECT_EQ(t.read_limit, std::nullopt);             // the header's 5 s run on
  t.body_arrives();
  EXPECT_EQ(t.reply.status, 503);
  EXPECT_EQ(t.calls, (std::vector<std::string>{"read_header", "read_body", "write_reply 503"}));  // never routed
  t.written();
  EXPECT_TRUE(t.closed);
  auto& u = open(OverCap{"--max-connections", "too many connections"});
  u.header_arrives("/upload", 1 << 20);
  EXPECT_EQ(u.reply.status, 503);
}

TEST_F(HttpExchangeTest, AStreamedAnswerIsWatchedAndTheNextRequestWaitsForTheWatch) {
  auto& t = open();
  call("/wait");
  wait_.reply(streamed());
  t.watch_ends(WatchEnd::kCancelled);
  EXPECT_EQ(t.write, Write::kStream);
  EXPECT_EQ(t.read, Read::kWatch);  // a client that leaves drops the source
  t.stream_ends(StreamEnd::kComplete);
  EXPECT_EQ(t.exchange.state(), State::kStreamEnded);
  EXPECT_TRUE(t.cancel_asked);
  t.watch_ends(WatchEnd::kCancelled);
  EXPECT_EQ(t.read, Read::kHeader);
}

TEST_F(HttpExchangeTest, AStreamedAnswerToHeadIsNotWatched) {
  auto& t = open();
  wait_.at_once = streamed();
  call("/wait", true, /*head=*/true);
  EXPECT_EQ(t.write, Write::kStream);
  EXPECT_TRUE(t.framing.head);
  EXPECT_EQ(t.read, Read::kNone);
  t.stream_ends(StreamEnd::kComplete);
  EXPECT_EQ(t.read, Read::kHeader);
}

TEST_F(HttpExchangeTest, AStreamCutOffDropsTheConnection) {
  auto& t = open();
  wait_.at_once = streamed();
  call("/wait");
  t.stream_ends(StreamEnd::kSourceFailed, "disk error");
  EXPECT_TRUE(t.aborted);
}

TEST_F(HttpExchangeTest, AClientThatLeavesAsItsStreamedAnswerEndsIsDropped) {
  auto& t = open();
  wait_.at_once = streamed();
  call("/wait");
  t.stream_ends(StreamEnd::kComplete);
  t.watch_ends(WatchEnd::kGone);
  EXPECT_TRUE(t.aborted);
  EXPECT_EQ(t.read, Read::kNone);
}

TEST_F(HttpExchangeTest, AnUpgradeHandsTheConnectionOver) {
  auto& t = open();
  t.header_arrives("/ws");
  t.next_route.kind = RouteOutcome::Kind::kUpgrade;
  t.body_arrives();
  EXPECT_TRUE(t.handed_over);
  EXPECT_EQ(t.exchange.state(), State::kHandedOver);
  t.exchange.shut_down();  // the viewer session answers for it now
  EXPECT_FALSE(t.aborted);
}

TEST_F(HttpExchangeTest, ShuttingDownCancelsAPendingEndpoint) {
  auto& t = open();
  call("/wait");
  t.exchange.shut_down();
  EXPECT_EQ(wait_.cancels, 1);
  EXPECT_TRUE(t.aborted);
  t.watch_ends(WatchEnd::kCancelled);  // the read ends as the socket closes
  EXPECT_EQ(t.calls.back(), "abort");
}

TEST_F(HttpExchangeTest, AnAnswerAfterTheSessionIsGoneIsDropped) {
  auto& t = open();
  call("/wait");
  t.alive.reset();
  wait_.reply(text(200, "late"));
  EXPECT_EQ(t.exchange.state(), State::kPending);
  EXPECT_EQ(t.write, Write::kNone);
}

TEST_F(HttpExchangeTest, AFailedWriteEndsTheConnection) {
  auto& t = open();
  t.header_arrives("/");
  t.body_arrives();
  t.written(false);
  EXPECT_EQ(t.exchange.state(), State::kClosed);
  EXPECT_EQ(t.read, Read::kNone);
}

}  // namespace
}  // namespace voxl::net

namespace voxl::net {
namespace VOXL_TEST_FILE {

// The audit trail hears of each call that may change something, with the
// answer's status, or that it was cancelled; a plain read is not recorded.
TEST_F(HttpExchangeTest, CallsThatMayChangeSomethingAreAuditedWithTheirOutcome) {
  std::vector<std::pair<std::string, nlohmann::json>> heard;
  ctx_.settings.audit = [&](std::string event, nlohmann::json fields) { heard.emplace_back(event, fields); };
  auto& t = open();
  wait_.at_once = text(200, "now");
  t.header_arrives("/wait");
  t.next_route.kind = RouteOutcome::Kind::kEndpoint;
  t.next_route.endpoint = &ctx_.settings.endpoints.at("/wait");
  t.next_route.call.method = "POST";
  t.next_route.call.path = "/wait";
  t.next_route.call.user = "alice";
  t.body_arrives();
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].first, "request");
  EXPECT_EQ(heard[0].second["status"], 200);
  EXPECT_EQ(heard[0].second["user"], "alice");
  EXPECT_EQ(heard[0].second["method"], "POST");
  t.written();

  wait_.at_once.reset();
  t.header_arrives("/wait");
  t.next_route.kind = RouteOutcome::Kind::kEndpoint;
  t.next_route.endpoint = &ctx_.settings.endpoints.at("/wait");
  t.next_route.call.method = "POST";
  t.body_arrives();
  t.watch_ends(WatchEnd::kGone);  // the client leaves before the answer
  ASSERT_EQ(heard.size(), 2u);
  EXPECT_EQ(heard[1].second["status"], "cancelled");

  auto& reads = open();
  reads.header_arrives("/wait");
  reads.next_route.kind = RouteOutcome::Kind::kEndpoint;
  reads.next_route.endpoint = &ctx_.settings.endpoints.at("/wait");
  reads.next_route.call.method = "GET";
  wait_.at_once = text(200, "now");
  reads.body_arrives();
  EXPECT_EQ(heard.size(), 2u) << "a plain read is not recorded";
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::net
