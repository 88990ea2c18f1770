#include "net/password_hash.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "net/users_file.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

TEST(PasswordHash, TheRightPasswordMatchesAndNoOtherDoes) {
  const std::string hash = hash_password("correct horse battery staple");
  EXPECT_TRUE(hash.starts_with("$argon2id$v=19$m=65536,t=2,p=1$")) << hash;
  EXPECT_TRUE(password_matches(hash, "correct horse battery staple"));
  EXPECT_FALSE(password_matches(hash, "correct horse battery stapler"));
  EXPECT_FALSE(password_matches(hash, ""));
  // A fresh salt each time.
  EXPECT_NE(hash_password("correct horse battery staple"), hash);
  // What it writes, a users file takes.
  UsersFileError error;
  const auto users = parse_users_file("alice:" + hash + ":view\n", error);
  ASSERT_TRUE(users) << error.message;
  EXPECT_TRUE(password_matches(users->find("alice")->hash, "correct horse battery staple"));
}

TEST(PasswordHash, BadHashesAndPasswordsAreRefused) {
  EXPECT_THROW(hash_password(""), std::runtime_error);
  EXPECT_THROW(hash_password(std::string(kMaxPassword + 1, 'x')), std::runtime_error);
  EXPECT_FALSE(password_matches("", "x"));
  EXPECT_FALSE(password_matches("$argon2i$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA", "x"));
  EXPECT_FALSE(password_matches("$argon2id$garbage", "x"));
  EXPECT_FALSE(password_matches(std::string(500, '$'), "x"));
  const std::string hash = hash_password("x");
  EXPECT_FALSE(password_matches(hash, std::string(kMaxPassword + 1, 'x')));
  std::string edited = hash;
  edited.back() = edited.back() == 'A' ? 'B' : 'A';
  EXPECT_FALSE(password_matches(edited, "x"));
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::net
