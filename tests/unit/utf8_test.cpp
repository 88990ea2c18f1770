#include "base/utf8.h"

#include <gtest/gtest.h>

namespace voxl {
namespace VOXL_TEST_FILE {

TEST(Utf8, DecodesEveryLength) {
  EXPECT_EQ(decode_utf8("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), std::u32string(U"a\u00e9\u20ac\U0001F600"));
  EXPECT_EQ(decode_utf8(""), std::u32string());
  EXPECT_EQ(decode_utf8("\xf4\x8f\xbf\xbf"), std::u32string(U"\U0010FFFF"));
}

TEST(Utf8, RefusesMalformedText) {
  EXPECT_FALSE(decode_utf8("\xc3"));              // truncated
  EXPECT_FALSE(decode_utf8("ab\xe2\x82"));       // truncated at the end
  EXPECT_FALSE(decode_utf8("\xc0\xaf"));          // overlong
  EXPECT_FALSE(decode_utf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(decode_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(decode_utf8("\xff"));
  EXPECT_FALSE(decode_utf8("a\x80" "b"));         // a lone continuation byte
}

}  // namespace
}  // namespace voxl
