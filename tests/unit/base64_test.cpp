#include "base/base64.h"

#include <gtest/gtest.h>

namespace voxl {
namespace {

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

}  // namespace
}  // namespace voxl
