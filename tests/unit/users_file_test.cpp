#include "net/users_file.h"

#include <gtest/gtest.h>

#include <string>

namespace voxl::net {
namespace VOXL_TEST_FILE {

const std::string kHash = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$ZmFrZWhhc2hmYWtlaGFzaGZha2VoYXNo";

Rights rights(std::string_view list) {
  std::string error;
  const auto r = parse_rights(list, error);
  EXPECT_TRUE(r) << list << ": " << error;
  return r.value_or(Rights());
}

std::string refusal(std::string_view list) {
  std::string error;
  EXPECT_FALSE(parse_rights(list, error)) << list;
  return error;
}

TEST(Rights, NamesAndShorthandsParse) {
  EXPECT_EQ(rights("view"), Rights::of(Right::kView));
  EXPECT_EQ(rights_text(rights("view, control ,clipboard")), "view,control,clipboard-in,clipboard-out");
  EXPECT_EQ(rights_text(rights("files")), "files-up,files-down");
  EXPECT_EQ(rights_text(rights("files-down,record")), "files-down,record");
  EXPECT_EQ(rights("all"), Rights::all());
  EXPECT_EQ(rights("admin"), Rights::all());
  EXPECT_EQ(rights("view,view"), Rights::of(Right::kView));
  EXPECT_EQ(rights_text(Rights()), "");
}

TEST(Rights, AnythingElseIsRefusedByName) {
  EXPECT_NE(refusal("").find("no rights"), std::string::npos);
  EXPECT_NE(refusal("view,").find("empty item"), std::string::npos);
  EXPECT_NE(refusal("view,,control").find("empty item"), std::string::npos);
  EXPECT_NE(refusal("view,root").find("'root' is not a right"), std::string::npos);
  EXPECT_NE(refusal("VIEW").find("'VIEW'"), std::string::npos);
}

std::optional<Users> parse(const std::string& text, UsersFileError* out = nullptr) {
  UsersFileError error;
  auto users = parse_users_file(text, error);
  if (out) *out = error;
  return users;
}

TEST(UsersFile, UsersWithHashesAndRightsAreRead) {
  const auto users = parse("# the team\n\nalice:" + kHash + ":view,control,clipboard\r\n  \n"
                           "bob:!:view\n"
                           "carol.o'neil-x@example.org:" + kHash + ":admin");
  ASSERT_FALSE(users);  // ' is not in a name
  const auto ok = parse("# the team\n\nalice:" + kHash + ":view,control,clipboard\r\n  \nbob:!:view\n"
                        "carol-x@example.org:" + kHash + ":admin");
  ASSERT_TRUE(ok);
  ASSERT_EQ(ok->all().size(), 3u);
  const UserEntry* alice = ok->find("alice");
  ASSERT_TRUE(alice);
  EXPECT_EQ(alice->hash, kHash);
  EXPECT_EQ(rights_text(alice->rights), "view,control,clipboard-in,clipboard-out");
  const UserEntry* bob = ok->find("bob");
  ASSERT_TRUE(bob);
  EXPECT_TRUE(bob->hash.empty()) << "'!': no password, a proxy names him";
  EXPECT_EQ(ok->find("carol-x@example.org")->rights, Rights::all());
  EXPECT_EQ(ok->find("Alice"), nullptr) << "names are exact";
  EXPECT_EQ(ok->find(""), nullptr);
  EXPECT_TRUE(parse(""));
  EXPECT_TRUE(parse("# nobody\n"));
}

TEST(UsersFile, EveryMistakeNamesItsLineAndGrantsNothing) {
  UsersFileError e;
  EXPECT_FALSE(parse("alice:" + kHash + ":view\nbob:secret:view\n", &e));
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.message.find("not an Argon2id hash"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("never written"), std::string::npos) << e.message;
  EXPECT_FALSE(parse("alice:" + kHash, &e));
  EXPECT_EQ(e.line, 1u);
  EXPECT_NE(e.message.find("name:hash:rights"), std::string::npos);
  EXPECT_FALSE(parse("\n\nalice:" + kHash + ":view,sudo\n", &e));
  EXPECT_EQ(e.line, 3u);
  EXPECT_NE(e.message.find("'sudo' is not a right"), std::string::npos) << e.message;
  EXPECT_FALSE(parse(":" + kHash + ":view", &e));
  EXPECT_NE(e.message.find("name"), std::string::npos);
  EXPECT_FALSE(parse(std::string(65, 'a') + ":!:view", &e));
  EXPECT_FALSE(parse("a b:!:view", &e));
  EXPECT_FALSE(parse("alice:!:view\nbob:!:view\nalice:!:control\n", &e));
  EXPECT_EQ(e.line, 3u);
  EXPECT_NE(e.message.find("listed on line 1 already"), std::string::npos) << e.message;
  EXPECT_FALSE(parse("alice:$argon2id$" + std::string(300, 'a') + ":view", &e));
  EXPECT_FALSE(parse("alice:$argon2id$a:b:view", &e)) << "a ':' in the hash leaves 'b:view' as rights";
  EXPECT_FALSE(parse("alice:$2b$10$abcdefghijklmnopqrstuv:view", &e)) << "bcrypt is not Argon2id";
  // A cost no sign-in can afford (4 GiB each) is refused, as is a lane
  // count libsodium does not check.
  EXPECT_FALSE(parse("alice:$argon2id$v=19$m=4194304,t=2,p=1$c2FsdA$aGFzaA:view", &e));
  EXPECT_NE(e.message.find("262144"), std::string::npos) << e.message;
  EXPECT_FALSE(parse("alice:$argon2id$v=19$m=65536,t=99,p=1$c2FsdA$aGFzaA:view", &e));
  EXPECT_FALSE(parse("alice:$argon2id$v=19$m=65536,t=2,p=4$c2FsdA$aGFzaA:view", &e));
  EXPECT_FALSE(parse("alice:$argon2id$v=16$m=65536,t=2,p=1$c2FsdA$aGFzaA:view", &e));
  EXPECT_FALSE(parse("alice:$argon2id$v=19$m=65536,t=2,p=1:view", &e));
  EXPECT_FALSE(parse("alice:$argon2id$v=19$m=99999999999999,t=2,p=1$c2FsdA$aGFzaA:view", &e));
  EXPECT_TRUE(parse("alice:$argon2id$v=19$m=262144,t=10,p=1$c2FsdA$aGFzaA:view", &e)) << e.message;
  EXPECT_FALSE(parse(std::string(Users::kMaxLine + 1, '#'), &e));
  EXPECT_NE(e.message.find("longer than"), std::string::npos);
  EXPECT_FALSE(parse(std::string(Users::kMaxFile + 1, '\n'), &e));
  EXPECT_EQ(e.line, 0u);
}

TEST(UsersFile, ManyUsersAreFoundByName) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "user" + std::to_string(i) + ":!:view\n";
  const auto users = parse(text);
  ASSERT_TRUE(users);
  for (int i = 0; i < 500; i += 37) EXPECT_TRUE(users->find("user" + std::to_string(i))) << i;
  EXPECT_FALSE(users->find("user500"));
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::net
