#include "app/access_wiring.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace voxl::app {
namespace VOXL_TEST_FILE {

std::string fixed_token() { return "generatedtoken0123456789"; }

Config at(const std::string& addr) {
  Config c;
  c.addr = addr;
  return c;
}

TEST(PlanAccess, BeyondLoopbackWithoutBasicAuthATokenIsMade) {
  for (const char* addr : {"0.0.0.0", "::", "192.168.1.5"}) {
    const AccessPlan p = plan_access(at(addr), {"desk"}, fixed_token);
    EXPECT_TRUE(p.generated_token) << addr;
    EXPECT_EQ(p.settings.token, fixed_token()) << addr;
    EXPECT_EQ(p.settings.own_hosts, std::vector<std::string>{"desk"});
    EXPECT_TRUE(p.warnings.empty()) << addr;
  }
}

TEST(PlanAccess, OnLoopbackNoTokenUnlessOneIsGiven) {
  for (const char* addr : {"127.0.0.1", "localhost", "::1", "127.0.0.2"}) {
    const AccessPlan p = plan_access(at(addr), {}, [] {
      ADD_FAILURE() << "no token wanted";
      return std::string();
    });
    EXPECT_FALSE(p.generated_token) << addr;
    EXPECT_TRUE(p.settings.token.empty()) << addr;
  }
  Config c = at("127.0.0.1");
  c.auth_token = "chosen-token-0123456789";
  const AccessPlan p = plan_access(c, {}, fixed_token);
  EXPECT_FALSE(p.generated_token);
  EXPECT_EQ(p.settings.token, "chosen-token-0123456789");
}

TEST(PlanAccess, BasicAuthOrTheOptOutMeanNoGeneratedToken) {
  Config c = at("0.0.0.0");
  c.basic_auth = true;
  c.basic_auth_password = "pw";
  EXPECT_FALSE(plan_access(c, {}, fixed_token).generated_token);
  EXPECT_TRUE(plan_access(c, {}, fixed_token).settings.basic_auth);

  Config open = at("0.0.0.0");
  open.insecure_no_auth = true;
  const AccessPlan p = plan_access(open, {}, fixed_token);
  EXPECT_TRUE(p.settings.token.empty());
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("controls this desktop"), std::string::npos);
}

TEST(PlanAccess, AnyHostWarns) {
  Config c = at("127.0.0.1");
  c.allowed_hosts = {"*"};
  const AccessPlan p = plan_access(c, {}, fixed_token);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("DNS rebinding"), std::string::npos);
  EXPECT_EQ(p.settings.allowed_hosts, std::vector<std::string>{"*"});
}

TEST(RandomAccessToken, Is128BitsOfHexAndDiffersEachTime) {
  std::set<std::string> seen;
  for (int i = 0; i < 20; ++i) {
    const std::string t = random_access_token();
    EXPECT_EQ(t.size(), 32u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos) << t;
    EXPECT_TRUE(net::is_valid_token(t));
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 20u);
}

}  // namespace
}  // namespace voxl::app
