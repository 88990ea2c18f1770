#include "platform/x11/x_authority.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(EncodeXauthority, WritesFamilyThenFourCountedFieldsBigEndian) {
  const std::string cookie("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10", 16);
  const std::string out = encode_xauthority({{kFamilyLocal, "box", "7", kMitMagicCookie, cookie}});
  std::string want;
  want += std::string("\x01\x00", 2);             // FamilyLocal 256
  want += std::string("\x00\x03", 2) + "box";      // address
  want += std::string("\x00\x01", 2) + "7";        // display number
  want += std::string("\x00\x12", 2) + "MIT-MAGIC-COOKIE-1";
  want += std::string("\x00\x10", 2) + cookie;
  EXPECT_EQ(out, want);
}

TEST(EncodeXauthority, WildEntryWithEmptyFieldsAndSeveralEntries) {
  const std::string out = encode_xauthority({{kFamilyWild, "", "", "N", "d"}, {kFamilyWild, "", "", "", ""}});
  const std::string one = std::string("\xff\xff\x00\x00\x00\x00\x00\x01N\x00\x01" "d", 12);
  const std::string two = std::string("\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00", 10);
  EXPECT_EQ(out, one + two);
}

TEST(EncodeXauthority, RefusesAFieldTooLongForItsLength) {
  EXPECT_THROW(encode_xauthority({{kFamilyWild, std::string(65536, 'a'), "", "", ""}}), std::invalid_argument);
  EXPECT_NO_THROW(encode_xauthority({{kFamilyWild, std::string(65535, 'a'), "", "", ""}}));
}

TEST(PrivateAuthority, FileIsOwnerOnlyInAPrivateDirectoryAndGoesAway) {
  std::string file, dir;
  {
    PrivateAuthority auth;
    file = auth.file();
    dir = file.substr(0, file.rfind('/'));
    ASSERT_EQ(auth.cookie().size(), kMitMagicCookieBytes);
    struct stat st{};
    ASSERT_EQ(lstat(file.c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    EXPECT_EQ(st.st_uid, geteuid());
    ASSERT_EQ(lstat(dir.c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(st.st_mode & 07777, 0700u);
    // The wildcard entry carries the cookie.
    const std::string bytes = read_file(file);
    EXPECT_NE(bytes.find(std::string("\x00\x10", 2) + auth.cookie()), std::string::npos);
    EXPECT_NE(bytes.find(kMitMagicCookie), std::string::npos);
  }
  struct stat st{};
  EXPECT_NE(lstat(file.c_str(), &st), 0);
  EXPECT_NE(lstat(dir.c_str(), &st), 0);
}

TEST(PrivateAuthority, TwoAuthoritiesHaveDifferentCookiesAndFiles) {
  PrivateAuthority a, b;
  EXPECT_NE(a.cookie(), b.cookie());
  EXPECT_NE(a.file(), b.file());
}

}  // namespace
}  // namespace voxl::platform::x11
