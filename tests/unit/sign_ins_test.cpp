#include "net/sign_ins.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "fake_post_loop.h"
#include "net/password_hash.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using testing::FakeLoop;

std::shared_ptr<const Users> team() {
  std::string why;
  std::vector<UserEntry> users{
      {"alice", hash_password("alice's secret"), *parse_rights("view,control", why)},
      {"bob", "", *parse_rights("view", why)},  // named only by a proxy
  };
  return std::make_shared<const Users>(std::move(users));
}

class SignInsTest : public ::testing::Test {
 protected:
  // Checks and waits for the verdict to come back to the loop.
  SignIns::Answer checked(std::string_view name, std::string_view password) {
    bool done = false;
    EXPECT_TRUE(sign_ins_.check(name, password, "192.0.2.1", [&] { done = true; }));
    EXPECT_TRUE(loop_.run_one());
    EXPECT_TRUE(done);
    return sign_ins_.lookup(name, password, SignIns::Clock::now());
  }

  FakeLoop loop_;
  SignIns sign_ins_{team(), loop_.post()};
};

TEST_F(SignInsTest, TheRightPasswordIsGrantedTheUsersRights) {
  EXPECT_EQ(sign_ins_.lookup("alice", "alice's secret", SignIns::Clock::now()).verdict, SignIns::Verdict::kUnknown);
  const SignIns::Answer a = checked("alice", "alice's secret");
  EXPECT_EQ(a.verdict, SignIns::Verdict::kGranted);
  EXPECT_EQ(a.name, "alice");
  EXPECT_EQ(rights_text(a.rights), "view,control");
  // Remembered: no second check.
  EXPECT_EQ(sign_ins_.lookup("alice", "alice's secret", SignIns::Clock::now() + 1h).verdict,
            SignIns::Verdict::kGranted);
}

TEST_F(SignInsTest, WrongPasswordsUnknownNamesAndNoPasswordAreRefusedForAWhile) {
  EXPECT_EQ(checked("alice", "alice's secreT").verdict, SignIns::Verdict::kRefused);
  EXPECT_EQ(checked("mallory", "alice's secret").verdict, SignIns::Verdict::kRefused);
  EXPECT_EQ(checked("bob", "").verdict, SignIns::Verdict::kRefused) << "bob has no password here";
  EXPECT_EQ(checked("alice", "").verdict, SignIns::Verdict::kRefused);
  // A refusal is kept for a short while only: then it is checked again.
  const auto later = SignIns::Clock::now() + SignIns::kRefusalMemory + 1s;
  EXPECT_EQ(sign_ins_.lookup("alice", "alice's secreT", later).verdict, SignIns::Verdict::kUnknown);
  // Names and passwords do not run into each other.
  EXPECT_EQ(sign_ins_.lookup("alic", "ealice's secret", SignIns::Clock::now()).verdict, SignIns::Verdict::kUnknown);
}

TEST_F(SignInsTest, NewUsersForgetEveryVerdictAndTheChecksUnderWay) {
  ASSERT_EQ(checked("alice", "alice's secret").verdict, SignIns::Verdict::kGranted);
  bool done = false;
  ASSERT_TRUE(sign_ins_.check("alice", "alice's secreT", "192.0.2.1", [&] { done = true; }));
  sign_ins_.set_users(std::make_shared<const Users>());
  EXPECT_EQ(sign_ins_.lookup("alice", "alice's secret", SignIns::Clock::now()).verdict, SignIns::Verdict::kUnknown);
  ASSERT_TRUE(loop_.run_one());
  EXPECT_TRUE(done) << "the caller hears back, and asks again";
  EXPECT_EQ(sign_ins_.lookup("alice", "alice's secreT", SignIns::Clock::now()).verdict, SignIns::Verdict::kUnknown);
  EXPECT_EQ(checked("alice", "alice's secret").verdict, SignIns::Verdict::kRefused) << "alice is gone";
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::net
