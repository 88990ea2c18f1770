#include "encode/h264_bitstream.h"

#include <gtest/gtest.h>

#include <vector>

namespace voxl::encode {
namespace VOXL_TEST_FILE {

using Bytes = std::vector<uint8_t>;

Bytes bytes_of(const NalUnit& nal) { return Bytes(nal.bytes.begin(), nal.bytes.end()); }

std::vector<Bytes> split(const Bytes& stream) {
  std::vector<Bytes> out;
  for (const NalUnit& nal : split_annex_b(stream)) out.push_back(bytes_of(nal));
  return out;
}

// SPS (Constrained Baseline, level 4.2), PPS, IDR slice; 4-byte start codes
// as x264 writes them, then a 3-byte one.
const Bytes kSps{0x67, 0x42, 0xC0, 0x2A, 0xDA, 0x01};
const Bytes kPps{0x68, 0xCE, 0x3C, 0x80};
const Bytes kIdr{0x65, 0x88, 0x84, 0x00, 0x21};
const Bytes kSlice{0x41, 0x9A, 0x02};  // non-IDR slice

Bytes annex_b(std::initializer_list<std::pair<int, const Bytes*>> units) {
  Bytes out;
  for (const auto& [start_code, nal] : units) {
    if (start_code == 4) out.push_back(0);
    out.insert(out.end(), {0, 0, 1});
    out.insert(out.end(), nal->begin(), nal->end());
  }
  return out;
}

TEST(SplitAnnexB, SplitsAtFourByteStartCodes) {
  const auto nals = split(annex_b({{4, &kSps}, {4, &kPps}, {4, &kIdr}}));
  EXPECT_EQ(nals, (std::vector<Bytes>{kSps, kPps, kIdr}));
}

TEST(SplitAnnexB, SplitsAtThreeByteStartCodes) {
  const auto nals = split(annex_b({{3, &kSps}, {3, &kPps}, {3, &kSlice}}));
  EXPECT_EQ(nals, (std::vector<Bytes>{kSps, kPps, kSlice}));
}

TEST(SplitAnnexB, MixedStartCodesDoNotLeakZerosIntoUnits) {
  const auto nals = split(annex_b({{4, &kSps}, {3, &kPps}, {4, &kIdr}, {3, &kSlice}}));
  EXPECT_EQ(nals, (std::vector<Bytes>{kSps, kPps, kIdr, kSlice}));
}

TEST(SplitAnnexB, TypesComeFromTheHeaderByte) {
  const Bytes s = annex_b({{4, &kSps}, {4, &kPps}, {4, &kIdr}, {4, &kSlice}});
  const auto nals = split_annex_b(s);
  ASSERT_EQ(nals.size(), 4u);
  EXPECT_EQ(nals[0].type(), kNalSps);
  EXPECT_EQ(nals[1].type(), kNalPps);
  EXPECT_EQ(nals[2].type(), kNalIdr);
  EXPECT_EQ(nals[3].type(), 1);
  EXPECT_EQ(NalUnit{}.type(), -1);
}

TEST(SplitAnnexB, IgnoresBytesBeforeTheFirstStartCode) {
  Bytes s{0xAA, 0xBB, 0x01, 0x00};
  const Bytes rest = annex_b({{4, &kSps}, {3, &kIdr}});
  s.insert(s.end(), rest.begin(), rest.end());
  EXPECT_EQ(split(s), (std::vector<Bytes>{kSps, kIdr}));
}

TEST(SplitAnnexB, TrailingZeroBytesAreNotPartOfTheLastUnit) {
  // trailing_zero_8bits (H.264 B.1.1) end the byte stream; a NAL unit's last
  // byte is never zero, and the units before the last are trimmed the same way.
  Bytes s = annex_b({{4, &kSps}, {4, &kIdr}});
  s.insert(s.end(), {0, 0, 0});
  EXPECT_EQ(split(s), (std::vector<Bytes>{kSps, kIdr}));
}

TEST(SplitAnnexB, TrailingZerosBeforeTheNextStartCodeAreDropped) {
  Bytes s = annex_b({{4, &kSps}});
  s.insert(s.end(), {0, 0});
  const Bytes rest = annex_b({{4, &kIdr}});
  s.insert(s.end(), rest.begin(), rest.end());
  EXPECT_EQ(split(s), (std::vector<Bytes>{kSps, kIdr}));
}

TEST(SplitAnnexB, EmptyAndStartCodeFreeInputGiveNothing) {
  EXPECT_TRUE(split_annex_b({}).empty());
  EXPECT_TRUE(split({0x65, 0x88, 0x84}).empty());
  EXPECT_TRUE(split({0, 0}).empty());
  EXPECT_TRUE(split({0, 0, 1}).empty()) << "a start code with nothing after it";
  EXPECT_TRUE(split({0, 0, 0, 1}).empty());
}

TEST(SplitAnnexB, UnitsPointIntoTheInput) {
  const Bytes s = annex_b({{4, &kSps}, {3, &kPps}});
  const auto nals = split_annex_b(s);
  ASSERT_EQ(nals.size(), 2u);
  EXPECT_EQ(nals[0].bytes.data(), s.data() + 4);
  EXPECT_EQ(nals[1].bytes.data(), s.data() + 4 + kSps.size() + 3);
}

TEST(ContainsIdr, FindsAnIdrSliceAnywhere) {
  EXPECT_TRUE(contains_idr(annex_b({{4, &kSps}, {4, &kPps}, {4, &kIdr}})));
  EXPECT_TRUE(contains_idr(annex_b({{3, &kIdr}})));
  const Bytes idr_low_priority{0x25, 0x88};  // nal_ref_idc 1, type 5
  EXPECT_TRUE(contains_idr(annex_b({{4, &idr_low_priority}})));
}

TEST(ContainsIdr, FalseWithoutAnIdrSlice) {
  EXPECT_FALSE(contains_idr(annex_b({{4, &kSlice}})));
  EXPECT_FALSE(contains_idr(annex_b({{4, &kSps}, {4, &kPps}, {4, &kSlice}})));
  EXPECT_FALSE(contains_idr({}));
  EXPECT_FALSE(contains_idr(kIdr)) << "no start code: not an Annex B unit";
}

TEST(ReadSpsInfo, ReadsProfileConstraintsAndLevel) {
  const auto info = read_sps_info(kSps);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->profile_idc, 66);
  EXPECT_EQ(info->constraint_flags, 0xC0);
  EXPECT_EQ(info->level_idc, 42);
}

TEST(ReadSpsInfo, RejectsShortOrNonSpsUnits) {
  EXPECT_FALSE(read_sps_info(Bytes{}));
  EXPECT_FALSE(read_sps_info(Bytes{0x67, 0x42, 0xC0})) << "level missing";
  EXPECT_FALSE(read_sps_info(kPps));
  EXPECT_FALSE(read_sps_info(kIdr));
}

TEST(CodecString, FormatsUppercaseHexFromTheSps) {
  EXPECT_EQ(codec_string(annex_b({{4, &kSps}, {4, &kPps}, {4, &kIdr}})), "avc1.42C02A");
  const Bytes high{0x67, 0x64, 0x00, 0x1F, 0xAC};
  EXPECT_EQ(codec_string(annex_b({{3, &high}})), "avc1.64001F");
  const Bytes main{0x27, 0x4D, 0x40, 0x0A};  // nal_ref_idc 1 still an SPS
  EXPECT_EQ(codec_string(annex_b({{4, &main}})), "avc1.4D400A");
}

TEST(CodecString, UsesTheFirstSps) {
  const Bytes second{0x67, 0x64, 0x00, 0x28};
  EXPECT_EQ(codec_string(annex_b({{4, &kSps}, {4, &second}})), "avc1.42C02A");
}

TEST(CodecString, NulloptWithoutAUsableSps) {
  EXPECT_FALSE(codec_string(annex_b({{4, &kSlice}})));
  EXPECT_FALSE(codec_string({}));
  const Bytes truncated{0x67, 0x42};
  EXPECT_FALSE(codec_string(annex_b({{4, &truncated}, {4, &kIdr}})));
}

}  // namespace
}  // namespace voxl::encode
