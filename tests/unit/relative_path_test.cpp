#include "files/relative_path.h"

#include <gtest/gtest.h>

#include <string>

namespace voxl::files {
namespace VOXL_TEST_FILE {

std::optional<std::string> parse(std::string_view text) {
  std::string why;
  auto p = parse_relative_path(text, why);
  if (!p) {
    EXPECT_FALSE(why.empty()) << "a refusal says why: " << text;
  }
  return p;
}

TEST(RelativePath, PlainPathsAreKeptAndSlashesTidied) {
  EXPECT_EQ(parse(""), "");
  EXPECT_EQ(parse("/"), "");
  EXPECT_EQ(parse("a"), "a");
  EXPECT_EQ(parse("a/b/c.txt"), "a/b/c.txt");
  EXPECT_EQ(parse("/a//b/"), "a/b");
  EXPECT_EQ(parse("résumé ✓.txt"), "résumé ✓.txt");
  EXPECT_EQ(parse("..a/b.."), "..a/b..");  // dots inside names are names
  EXPECT_EQ(parse(".hidden"), ".hidden");
}

TEST(RelativePath, EveryTraversalIsRefused) {
  for (const char* bad : {"..", "../etc/passwd", "a/../../b", "a/..", "./a", "a/./b", "/..", "a/../"})
    EXPECT_FALSE(parse(bad)) << bad;
}

TEST(RelativePath, BackslashesNulAndControlsAreRefused) {
  EXPECT_FALSE(parse("..\\..\\windows"));
  EXPECT_FALSE(parse("a\\b"));
  EXPECT_FALSE(parse(std::string_view("a\0b", 3)));
  EXPECT_FALSE(parse("a\nb"));
  EXPECT_FALSE(parse("a\x7f"));
}

TEST(RelativePath, PercentEncodingIsNotDecodedAgain) {
  // The query was decoded once; what is left is a literal name, harmless
  // beneath the root, never a way up.
  EXPECT_EQ(parse("%2e%2e/%2e%2e/etc"), "%2e%2e/%2e%2e/etc");
  EXPECT_EQ(parse("%252e%252e"), "%252e%252e");
}

TEST(RelativePath, BadUtf8AndLengthsAreRefused) {
  EXPECT_FALSE(parse("\xc0\xae\xc0\xae/x"));  // overlong "..": not UTF-8
  EXPECT_FALSE(parse("\xff"));
  EXPECT_FALSE(parse("\xed\xa0\x80"));  // a surrogate
  EXPECT_TRUE(parse(std::string(255, 'a')));
  EXPECT_FALSE(parse(std::string(256, 'a')));
  std::string deep;
  while (deep.size() <= kMaxPathBytes) deep += "abcdefg/";
  EXPECT_FALSE(parse(deep));
}

TEST(RelativePath, NewPathsRefuseEmptyOwnAndAmbiguousNames) {
  std::string why;
  EXPECT_EQ(parse_new_path("photos/a.jpg", why), "photos/a.jpg");
  EXPECT_FALSE(parse_new_path("", why));
  EXPECT_FALSE(parse_new_path("/", why));
  EXPECT_FALSE(parse_new_path(".voxl-upload-0123.part", why));
  EXPECT_FALSE(parse_new_path("a/.voxl-upload-x", why));
  EXPECT_FALSE(parse_new_path("trailing ", why));
  EXPECT_FALSE(parse_new_path("dot.", why));
  EXPECT_FALSE(parse_new_path("../x", why));
}

TEST(RelativePath, JoinAndSplit) {
  EXPECT_EQ(join_path("", "a"), "a");
  EXPECT_EQ(join_path("a/b", "c"), "a/b/c");
  EXPECT_EQ(join_path("a", ""), "a");
  EXPECT_EQ(last_name("a/b/c"), "c");
  EXPECT_EQ(last_name("c"), "c");
  EXPECT_EQ(parent_path("a/b/c"), "a/b");
  EXPECT_EQ(parent_path("c"), "");
}

TEST(NumberedName, KeepsTheExtension) {
  EXPECT_EQ(numbered_name("report.pdf", 1), "report (1).pdf");
  EXPECT_EQ(numbered_name("report.pdf", 12), "report (12).pdf");
  EXPECT_EQ(numbered_name("archive.tar.gz", 1), "archive (1).tar.gz");
  EXPECT_EQ(numbered_name(".bashrc", 1), ".bashrc (1)");
  EXPECT_EQ(numbered_name("notes", 2), "notes (2)");
  EXPECT_EQ(numbered_name("a.b.c", 1), "a.b (1).c");
}

TEST(NumberedName, StaysWithinTheNameLimitAtACharacterBoundary) {
  std::string stem;
  while (stem.size() < 250) stem += "é";  // two bytes each
  const std::string n = numbered_name(stem + ".txt", 123);
  EXPECT_LE(n.size(), kMaxNameBytes);
  EXPECT_TRUE(n.ends_with(" (123).txt"));
  std::string why;
  EXPECT_TRUE(parse_new_path(n, why)) << why;  // still UTF-8
}

}  // namespace
}  // namespace voxl::files
