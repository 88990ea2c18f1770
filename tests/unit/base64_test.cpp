#include "base/base64.h"

#include <gtest/gtest.h>

namespace voxl {
namespace VOXL_TEST_FILE {

TEST(Base64, RoundTripsEveryLength) {
  std::string bytes;
  for (int n = 0; n < 300; ++n) {
    const auto back = base64_decode(base64_encode(bytes));
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, bytes);
    bytes.push_back(char(n * 37));
  }
}

TEST(Base64, KnownValues) {
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_decode("Zm9vYg=="), "foob");
}

TEST(Base64, RejectsMalformed) {
  EXPECT_FALSE(base64_decode("Zm9"));
  EXPECT_FALSE(base64_decode("Zm=v"));
  EXPECT_FALSE(base64_decode("Z==="));
  EXPECT_FALSE(base64_decode("Zm9v!A=="));
  EXPECT_FALSE(base64_decode("Zg==Zg=="));
}

// These came with the Basic auth parser, which now decodes through this one.
TEST(Base64, DecodesValidInput) {
  EXPECT_EQ(base64_decode(""), "");
  EXPECT_EQ(base64_decode("aGVsbG8h"), "hello!");
  EXPECT_EQ(base64_decode("aGVsbG8="), "hello");
  EXPECT_EQ(base64_decode("aGVsbA=="), "hell");
  EXPECT_EQ(base64_decode("+/+/"), std::string("\xfb\xff\xbf", 3));
  EXPECT_EQ(base64_decode("AP8="), std::string("\x00\xff", 2));
}

TEST(Base64, RejectsInvalidCharacters) {
  for (std::string_view in : {"aGV$bG8=", "aGVsbG8-", "aGVs_G8=", "aGVs bG8", "aGVs\nbG8"})
    EXPECT_FALSE(base64_decode(in)) << in;
}

TEST(Base64, RejectsLengthsThatAreNotAMultipleOfFour) {
  for (std::string_view in : {"a", "aG", "aGV", "aGVsbG8", "aGVsbG8=="})
    EXPECT_FALSE(base64_decode(in)) << in;
}

TEST(Base64, RejectsMisplacedPadding) {
  // Data after padding, padding in the first two positions of a group,
  // padding before the last group.
  for (std::string_view in : {"aG=v", "a===", "====", "=GVs", "aGVsbG8=aGVs", "aG==aGVs"})
    EXPECT_FALSE(base64_decode(in)) << in;
}

}  // namespace
}  // namespace voxl
