// check_access with a users file: Basic sign-ins of named users decided by
// what the sign-ins know (a fake lookup here), beside the built-in user and
// the token.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "base/base64.h"
#include "net/access_policy.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

std::string basic(const std::string& name, const std::string& password) {
  return "Basic " + base64_encode(name + ":" + password);
}

struct Lookups {
  std::map<std::pair<std::string, std::string>, SignInAnswer> known;
  int asked = 0;
  SignInLookup lookup() {
    return [this](std::string_view name, std::string_view password) {
      ++asked;
      const auto it = known.find({std::string(name), std::string(password)});
      return it == known.end() ? SignInAnswer{} : it->second;
    };
  }
};

AccessSettings users_file() {
  AccessSettings s;
  s.users_file = true;
  return s;
}

AccessDecision decide(const AccessSettings& s, const std::string& authorization, const SignInLookup& users) {
  RequestFacts r;
  r.host = "localhost";
  r.authorization = authorization;
  return check_access(s, r, users);
}

const Rights kViewControl = Rights::of(Right::kView).with(Right::kControl);

TEST(UsersAccess, AnUncheckedSignInIsPendingWithItsNameAndPassword) {
  Lookups l;
  const AccessDecision d = decide(users_file(), basic("alice", "pw"), l.lookup());
  EXPECT_TRUE(d.sign_in_pending);
  EXPECT_EQ(d.status, 0);
  EXPECT_EQ(d.role, Role::kNone);
  EXPECT_EQ(d.user, "alice");
  EXPECT_EQ(d.password, "pw");
  EXPECT_FALSE(d.failed_attempt);
}

TEST(UsersAccess, AGrantedSignInCarriesTheUserAndTheirRights) {
  Lookups l;
  l.known[{"alice", "pw"}] = {SignInAnswer::Verdict::kGranted, "alice", kViewControl};
  l.known[{"bob", "pw"}] = {SignInAnswer::Verdict::kGranted, "bob", Rights::of(Right::kView)};
  const AccessDecision alice = decide(users_file(), basic("alice", "pw"), l.lookup());
  EXPECT_EQ(alice.status, 200);
  EXPECT_EQ(alice.user, "alice");
  EXPECT_EQ(alice.rights, kViewControl);
  EXPECT_EQ(alice.role, Role::kFull);
  EXPECT_EQ(alice.credential, Credential::kBasic);
  EXPECT_TRUE(alice.password.empty()) << "a granted decision keeps no password";
  const AccessDecision bob = decide(users_file(), basic("bob", "pw"), l.lookup());
  EXPECT_EQ(bob.status, 200);
  EXPECT_EQ(bob.role, Role::kViewOnly);
}

TEST(UsersAccess, ARefusedSignInIsAWrongPasswordThatCounts) {
  Lookups l;
  l.known[{"alice", "bad"}] = {SignInAnswer::Verdict::kRefused, "", {}};
  const AccessDecision d = decide(users_file(), basic("alice", "bad"), l.lookup());
  EXPECT_EQ(d.status, 401);
  EXPECT_TRUE(d.failed_attempt);
  EXPECT_EQ(d.challenge, "Basic");
  EXPECT_EQ(d.role, Role::kNone);
  EXPECT_TRUE(d.user.empty());
}

TEST(UsersAccess, AUserWithoutViewIsRefusedWithTheReason) {
  Lookups l;
  l.known[{"carol", "pw"}] = {SignInAnswer::Verdict::kGranted, "carol", Rights::of(Right::kRecord)};
  const AccessDecision d = decide(users_file(), basic("carol", "pw"), l.lookup());
  EXPECT_EQ(d.status, 403);
  EXPECT_EQ(d.refused, Refusal::kRights);
  EXPECT_NE(d.reason.find("carol"), std::string::npos) << d.reason;
  EXPECT_EQ(d.role, Role::kNone);
}

TEST(UsersAccess, NoCredentialAsksForBasic) {
  Lookups l;
  const AccessDecision d = decide(users_file(), "", l.lookup());
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.challenge, "Basic");
  EXPECT_FALSE(d.failed_attempt);
  EXPECT_EQ(l.asked, 0);
}

TEST(UsersAccess, TheBuiltInUserIsCheckedByItsOwnPasswordsNeverTheFile) {
  AccessSettings s = users_file();
  s.basic_auth = true;
  s.user = "voxl";
  s.password = "full";
  s.viewonly_password = "look";
  Lookups l;
  const AccessDecision full = decide(s, basic("voxl", "full"), l.lookup());
  EXPECT_EQ(full.status, 200);
  EXPECT_TRUE(full.user.empty()) << "the built-in name is everyone's, no one's";
  EXPECT_EQ(full.rights, Rights::all());
  const AccessDecision look = decide(s, basic("voxl", "look"), l.lookup());
  EXPECT_EQ(look.rights, Rights::of(Right::kView));
  EXPECT_EQ(look.role, Role::kViewOnly);
  EXPECT_EQ(decide(s, basic("voxl", "other"), l.lookup()).status, 401);
  EXPECT_EQ(l.asked, 0) << "the built-in name never reaches the users file";
  EXPECT_TRUE(decide(s, basic("alice", "pw"), l.lookup()).sign_in_pending);
}

TEST(UsersAccess, TheTokenStillLetsInWithEveryRight) {
  AccessSettings s = users_file();
  s.token = "0123456789abcdef0123";
  Lookups l;
  const AccessDecision d = decide(s, "Bearer 0123456789abcdef0123", l.lookup());
  EXPECT_EQ(d.status, 200);
  EXPECT_EQ(d.rights, Rights::all());
  EXPECT_TRUE(d.user.empty());
  EXPECT_EQ(d.credential, Credential::kBearer);
}

TEST(UsersAccess, WithoutALookupEveryNamedSignInIsRefused) {
  const AccessDecision d = decide(users_file(), basic("alice", "pw"), {});
  EXPECT_EQ(d.status, 401);
  EXPECT_FALSE(d.sign_in_pending);
}

AccessDecision named_by_proxy(const AccessSettings& s, std::string_view user, const NamedUserLookup& named) {
  RequestFacts r;
  r.host = "localhost";
  r.proxy_user = user;
  return check_access(s, r, {}, named);
}

NamedUserLookup directory() {
  return [](std::string_view name) {
    if (name == "alice") return SignInAnswer{SignInAnswer::Verdict::kGranted, "alice", kViewControl};
    if (name == "quinn") return SignInAnswer{SignInAnswer::Verdict::kGranted, "quinn", Rights::of(Right::kRecord)};
    return SignInAnswer{SignInAnswer::Verdict::kRefused, "", {}};
  };
}

TEST(UsersAccess, AUserTheProxyNamesNeedsNoOtherCredential) {
  AccessSettings s = users_file();
  s.token = "0123456789abcdef0123";
  const AccessDecision d = named_by_proxy(s, " alice ", directory());
  EXPECT_EQ(d.status, 200) << d.reason;
  EXPECT_EQ(d.user, "alice");
  EXPECT_EQ(d.rights, kViewControl);
  EXPECT_EQ(d.role, Role::kFull);
  EXPECT_EQ(d.credential, Credential::kProxy);
}

TEST(UsersAccess, AUserTheProxyNamesWhoIsNotInTheFileIsRefusedWithoutCounting) {
  const AccessDecision d = named_by_proxy(users_file(), "mallory", directory());
  EXPECT_EQ(d.status, 403);
  EXPECT_EQ(d.refused, Refusal::kRights);
  EXPECT_NE(d.reason.find("'mallory'"), std::string::npos) << d.reason;
  EXPECT_FALSE(d.failed_attempt) << "the proxy chose the name, not the client";
  EXPECT_EQ(named_by_proxy(users_file(), "quinn", directory()).status, 403) << "no view";
  EXPECT_EQ(named_by_proxy(AccessSettings{}, "alice", directory()).status, 403) << "no users file";
}

TEST(UsersAccess, RightsGiveRoles) {
  EXPECT_EQ(role_of(Rights::all()), Role::kFull);
  EXPECT_EQ(role_of(kViewControl), Role::kFull);
  EXPECT_EQ(role_of(Rights::of(Right::kView)), Role::kViewOnly);
  EXPECT_EQ(role_of(Rights::of(Right::kControl)), Role::kNone);
  EXPECT_EQ(role_of(Rights()), Role::kNone);
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::net
