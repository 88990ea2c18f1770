#include "files/download_headers.h"

#include <gtest/gtest.h>

namespace voxl::files {
namespace VOXL_TEST_FILE {

using Kind = RangeChoice::Kind;
constexpr std::string_view kTag = "\"v1\"";

RangeChoice pick(std::optional<std::string_view> range, uint64_t size = 1000,
                 std::optional<std::string_view> if_range = std::nullopt) {
  return choose_range(range, if_range, kTag, size);
}

TEST(ChooseRange, NoRangeIsTheWholeFile) { EXPECT_EQ(pick(std::nullopt).kind, Kind::kWhole); }

TEST(ChooseRange, OneRangeInEachForm) {
  auto r = pick("bytes=0-99");
  EXPECT_EQ(r.kind, Kind::kPart);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.length, 100u);
  EXPECT_EQ(content_range(r, 1000), "bytes 0-99/1000");
  r = pick("bytes=900-");
  EXPECT_EQ(r.first, 900u);
  EXPECT_EQ(r.length, 100u);
  r = pick("bytes=-10");
  EXPECT_EQ(r.first, 990u);
  EXPECT_EQ(r.length, 10u);
  r = pick("bytes=-5000");  // more than there is: all of it
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.length, 1000u);
  r = pick("bytes=500-99999");  // the end is clamped
  EXPECT_EQ(r.length, 500u);
  r = pick(" bytes= 5 - 9 ");
  EXPECT_EQ(r.kind, Kind::kPart);
  EXPECT_EQ(r.length, 5u);
}

TEST(ChooseRange, PastTheEndIsUnsatisfiable) {
  auto r = pick("bytes=1000-");
  EXPECT_EQ(r.kind, Kind::kUnsatisfiable);
  EXPECT_EQ(content_range(r, 1000), "bytes */1000");
  EXPECT_EQ(pick("bytes=0-", 0).kind, Kind::kUnsatisfiable);
  EXPECT_EQ(pick("bytes=-0").kind, Kind::kUnsatisfiable);
}

TEST(ChooseRange, MalformedOrSeveralRangesAreIgnored) {
  for (const char* bad : {"bytes=", "bytes=-", "bytes=a-b", "bytes=5-1", "bytes=0-1,5-6", "items=0-1", "bytes=+1-2",
                          "bytes=99999999999999999999-", "bytes 0-1", "bytes=1"})
    EXPECT_EQ(pick(bad).kind, Kind::kWhole) << bad;
}

TEST(ChooseRange, IfRangeMustNameTheCurrentTag) {
  EXPECT_EQ(pick("bytes=0-9", 1000, "\"v1\"").kind, Kind::kPart);
  EXPECT_EQ(pick("bytes=0-9", 1000, "\"v0\"").kind, Kind::kWhole);
  EXPECT_EQ(pick("bytes=0-9", 1000, "Wed, 21 Oct 2015 07:28:00 GMT").kind, Kind::kWhole);
}

TEST(AttachmentDisposition, AsciiNamesAsTheyAre) {
  EXPECT_EQ(attachment_disposition("report.pdf"), "attachment; filename=\"report.pdf\"; filename*=UTF-8''report.pdf");
}

TEST(AttachmentDisposition, UnicodeAndSpecialCharacters) {
  EXPECT_EQ(attachment_disposition("résumé ✓.txt"),
            "attachment; filename=\"r_sum_ _.txt\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%9C%93.txt");
  // Quotes, backslashes and semicolons never break out of the header value.
  const std::string d = attachment_disposition("a\"b\\c;d%e.txt");
  EXPECT_EQ(d, "attachment; filename=\"a_b_c_d_e.txt\"; filename*=UTF-8''a%22b%5Cc%3Bd%25e.txt");
  EXPECT_EQ(attachment_disposition("ü"), "attachment; filename=\"_\"; filename*=UTF-8''%C3%BC");
}

}  // namespace
}  // namespace voxl::files
