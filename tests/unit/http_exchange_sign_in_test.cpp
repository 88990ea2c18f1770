// HttpExchange while a users file's password is checked: the request waits
// (nothing read, nothing written), the check holds the connection, and the
// request is routed again with the verdict; a sign-in never settled is a
// 503, and a server that stops meanwhile drops it.
#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "fake_post_loop.h"
#include "net/http_exchange.h"
#include "net/password_hash.h"
#include "net/sign_ins.h"
#include "recording_http_transport.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

using testing::FakeLoop;
using testing::RecordingHttpTransport;
using State = HttpExchange::State;
using Read = RecordingHttpTransport::Read;
using Write = RecordingHttpTransport::Write;

class HttpExchangeSignInTest : public ::testing::Test {
 protected:
  HttpExchangeSignInTest() {
    ctx_.log = std::make_shared<spdlog::logger>("sign-in-test", std::make_shared<spdlog::sinks::null_sink_mt>());
    std::string why;
    std::vector<UserEntry> users{{"alice", hash_password("pw"), *parse_rights("view", why)}};
    sign_ins_ = std::make_unique<SignIns>(std::make_shared<const Users>(std::move(users)), loop_.post());
    ctx_.sign_ins = sign_ins_.get();
    t_ = std::make_unique<RecordingHttpTransport>(ctx_, shared_, std::nullopt);
    t_->exchange.start();
  }
  ~HttpExchangeSignInTest() override { EXPECT_EQ(t_->violations, std::vector<std::string>{}); }

  // A request read whole whose routing asks for a sign-in to be checked.
  void signing_in(const std::string& password = "pw") {
    t_->header_arrives("/");
    t_->next_route.kind = RouteOutcome::Kind::kSignIn;
    t_->next_route.user = "alice";
    t_->next_route.password = password;
    t_->body_arrives();
    t_->next_route = {};  // the routing after the check answers
  }

  SessionContext ctx_;
  SessionShared shared_;
  FakeLoop loop_;
  std::unique_ptr<SignIns> sign_ins_;
  std::unique_ptr<RecordingHttpTransport> t_;
};

TEST_F(HttpExchangeSignInTest, TheRequestWaitsForItsCheckThenIsRoutedAgain) {
  signing_in();
  EXPECT_EQ(t_->exchange.state(), State::kSigningIn);
  EXPECT_EQ(t_->read, Read::kNone);
  EXPECT_EQ(t_->write, Write::kNone);
  // The next routing finds the verdict and answers.
  ASSERT_TRUE(loop_.run_one());
  EXPECT_EQ(sign_ins_->lookup("alice", "pw", SignIns::Clock::now()).verdict, SignIns::Verdict::kGranted);
  EXPECT_EQ(t_->write, Write::kRouted);
  EXPECT_EQ(t_->calls, (std::vector<std::string>{"read_header", "read_body", "route", "route", "write_routed"}));
  t_->written();
  EXPECT_EQ(t_->read, Read::kHeader);
}

TEST_F(HttpExchangeSignInTest, TheCheckKeepsTheConnectionWhileItRuns) {
  signing_in();
  std::weak_ptr<void> lifetime = t_->alive;
  t_->alive.reset();  // the session's last other holder lets go
  EXPECT_FALSE(lifetime.expired());
  ASSERT_TRUE(loop_.run_one());
  EXPECT_EQ(t_->write, Write::kRouted);
}

TEST_F(HttpExchangeSignInTest, ASignInStillUncheckedAfterTwoChecksIs503) {
  signing_in();
  for (int i = 0; i < HttpExchange::kMaxSignInChecks; ++i) {
    // The users change while each check runs: the routing asks again.
    sign_ins_->set_users(std::make_shared<const Users>());
    t_->next_route.kind = RouteOutcome::Kind::kSignIn;
    t_->next_route.user = "alice";
    ASSERT_TRUE(loop_.run_one());
  }
  EXPECT_EQ(t_->write, Write::kReply);
  EXPECT_EQ(t_->reply.status, 503);
  EXPECT_NE(t_->reply.body.find("could not check the password"), std::string::npos) << t_->reply.body;
  t_->written();
}

TEST_F(HttpExchangeSignInTest, AServerThatStopsDropsTheWaitingRequest) {
  signing_in();
  t_->exchange.shut_down();
  EXPECT_TRUE(t_->aborted);
  ASSERT_TRUE(loop_.run_one());  // the verdict comes for nobody
  EXPECT_EQ(t_->calls.back(), "abort");
  EXPECT_EQ(t_->exchange.state(), State::kClosed);
}

TEST_F(HttpExchangeSignInTest, WithoutAUsersFileASignInIsVoxlsFault) {
  ctx_.sign_ins = nullptr;
  signing_in();
  EXPECT_EQ(t_->write, Write::kReply);
  EXPECT_EQ(t_->reply.status, 500);
  t_->written();
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::net
