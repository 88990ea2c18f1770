#include "stream/viewer/wire_format.h"

#include "input/clipboard.h"
#include "input/viewer_input.h"
#include "stream/viewer/viewer_settings.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

std::vector<uint8_t> message_with(const VideoHeader& h, size_t payload_bytes = 0) {
  std::vector<uint8_t> m(kVideoHeaderBytes + payload_bytes, 0xEE);
  write_video_header(h, std::span<uint8_t, kVideoHeaderBytes>(m.data(), kVideoHeaderBytes));
  return m;
}

uint64_t little_endian(const std::vector<uint8_t>& m, size_t offset, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v |= uint64_t(m.at(offset + i)) << (8 * i);
  return v;
}

void set_header_bytes(std::vector<uint8_t>& m, uint16_t n) {
  m[2] = uint8_t(n & 0xff);
  m[3] = uint8_t(n >> 8);
}

void expect_same(const VideoHeader& a, const VideoHeader& b) {
  EXPECT_EQ(a.key, b.key);
  EXPECT_EQ(a.frame_id, b.frame_id);
  EXPECT_EQ(a.capture_us, b.capture_us);
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  EXPECT_EQ(a.server_us, b.server_us);
}

TEST(WireFormat, RoundTripsEveryField) {
  const VideoHeader h{true, 123456, 1'700'000'000'123'456ull, 1920, 1080, 7890};
  const auto m = message_with(h, 5);
  size_t offset = 0;
  const auto back = read_video_header(m, offset);
  ASSERT_TRUE(back);
  expect_same(*back, h);
  EXPECT_EQ(offset, kVideoHeaderBytes);
}

TEST(WireFormat, StageStampsFollowTheBaseHeader) {
  const VideoHeader h{false, 77, 1'700'000'000'000'000ull, 1920, 1080, 9000};
  const VideoStamps st{-16000, -600, 450, 7300, 7400};
  std::vector<uint8_t> m(kVideoHeaderWithStampsBytes + 3, 0xEE);
  write_video_header(h, st, std::span<uint8_t, kVideoHeaderWithStampsBytes>(m.data(), kVideoHeaderWithStampsBytes));
  EXPECT_EQ(little_endian(m, 2, 2), 44u);
  EXPECT_EQ(little_endian(m, 24, 4), uint32_t(-16000));
  EXPECT_EQ(little_endian(m, 40, 4), 7400u);
  size_t offset = 0;
  const auto back = read_video_header(m, offset);
  ASSERT_TRUE(back);
  expect_same(*back, h);
  EXPECT_EQ(offset, kVideoHeaderWithStampsBytes);
  const auto stamps = read_video_stamps(m);
  ASSERT_TRUE(stamps);
  EXPECT_EQ(stamps->ready_us, -16000);
  EXPECT_EQ(stamps->grab_us, -600);
  EXPECT_EQ(stamps->converted_us, 450);
  EXPECT_EQ(stamps->encoded_us, 7300);
  EXPECT_EQ(stamps->published_us, 7400);
  // A base header alone has none.
  EXPECT_FALSE(read_video_stamps(message_with(h, 30)));
}

TEST(WireFormat, TheStripePartFollowsTheStamps) {
  const VideoHeader h{true, 78, 1'700'000'000'000'000ull, 1920, 1080, 9000};
  const VideoStamps st{-16000, -600, 450, 7300, 7400};
  const VideoStripe stripe{2, 4, 544, 272, true};
  std::vector<uint8_t> m(kVideoHeaderWithStripeBytes + 5, 0xEE);
  write_video_header(h, st, stripe, std::span<uint8_t, kVideoHeaderWithStripeBytes>(m.data(), kVideoHeaderWithStripeBytes));
  EXPECT_EQ(little_endian(m, 2, 2), 52u);
  EXPECT_EQ(m[44], 2);
  EXPECT_EQ(m[45], 4);
  EXPECT_EQ(little_endian(m, 46, 2), 544u);
  EXPECT_EQ(little_endian(m, 48, 2), 272u);
  EXPECT_EQ(m[50], kStripeFlagLast);
  EXPECT_EQ(m[51], 0) << "reserved";
  size_t offset = 0;
  const auto back = read_video_header(m, offset);
  ASSERT_TRUE(back);
  expect_same(*back, h);
  EXPECT_EQ(offset, kVideoHeaderWithStripeBytes);
  ASSERT_TRUE(read_video_stamps(m));
  EXPECT_EQ(read_video_stamps(m)->published_us, 7400);
  const auto s = read_video_stripe(m);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->stripe, 2);
  EXPECT_EQ(s->stripes, 4);
  EXPECT_EQ(s->band_y, 544);
  EXPECT_EQ(s->band_height, 272);
  EXPECT_TRUE(s->last);
  m[50] = 0xFE;  // unknown bits, not the last band
  EXPECT_FALSE(read_video_stripe(m)->last);
  // A header with stamps only is one stream.
  std::vector<uint8_t> plain(kVideoHeaderWithStampsBytes, 0);
  write_video_header(h, st, std::span<uint8_t, kVideoHeaderWithStampsBytes>(plain.data(), plain.size()));
  EXPECT_FALSE(read_video_stripe(plain));
}

TEST(WireFormat, RoundTripsExtremeValues) {
  const VideoHeader lows{false, 0, 0, 0, 0, 0};
  const VideoHeader highs{true, std::numeric_limits<uint32_t>::max(), std::numeric_limits<uint64_t>::max(),
                          std::numeric_limits<uint16_t>::max(), std::numeric_limits<uint16_t>::max(),
                          std::numeric_limits<uint32_t>::max()};
  for (const VideoHeader& h : {lows, highs}) {
    const auto m = message_with(h);
    size_t offset = 99;
    const auto back = read_video_header(m, offset);
    ASSERT_TRUE(back);
    expect_same(*back, h);
    EXPECT_EQ(offset, kVideoHeaderBytes);
  }
}

TEST(WireFormat, WritesTheDocumentedLayout) {
  const VideoHeader h{true, 0x04030201u, 0x0c0b0a0908070605ull, 0x0e0d, 0x100f, 0x14131211u};
  const auto m = message_with(h);
  EXPECT_EQ(m[0], kKindVideo);
  EXPECT_EQ(m[1], kFlagKeyFrame);
  EXPECT_EQ(little_endian(m, 2, 2), kVideoHeaderBytes);
  EXPECT_EQ(little_endian(m, 4, 4), h.frame_id);
  EXPECT_EQ(little_endian(m, 8, 8), h.capture_us);
  EXPECT_EQ(little_endian(m, 16, 2), h.width);
  EXPECT_EQ(little_endian(m, 18, 2), h.height);
  EXPECT_EQ(little_endian(m, 20, 4), h.server_us);

  const auto delta = message_with(VideoHeader{});
  EXPECT_EQ(delta[1], 0);
}

TEST(WireFormat, RejectsMessagesShorterThanTheHeader) {
  auto m = message_with(VideoHeader{true, 1, 2, 3, 4, 5});
  size_t offset = 0;
  for (size_t n = 0; n < kVideoHeaderBytes; ++n)
    EXPECT_FALSE(read_video_header(std::span<const uint8_t>(m.data(), n), offset)) << n << " bytes";
}

TEST(WireFormat, RejectsOtherKinds) {
  auto m = message_with(VideoHeader{true, 1, 2, 3, 4, 5});
  size_t offset = 0;
  for (uint8_t kind : {0, 2, 255}) {
    m[0] = kind;
    EXPECT_FALSE(read_video_header(m, offset)) << "kind " << int(kind);
  }
}

TEST(WireFormat, RejectsHeaderBytesBelowTwentyFourOrPastTheEnd) {
  auto m = message_with(VideoHeader{true, 1, 2, 3, 4, 5}, 8);  // 32 bytes in all
  size_t offset = 0;
  for (uint16_t n : {0, 1, 23}) {
    set_header_bytes(m, n);
    EXPECT_FALSE(read_video_header(m, offset)) << "header_bytes " << n;
  }
  for (uint16_t n : {33, 1000, 65535}) {
    set_header_bytes(m, n);
    EXPECT_FALSE(read_video_header(m, offset)) << "header_bytes " << n;
  }
  set_header_bytes(m, 32);  // exactly the whole message: no payload, still valid
  EXPECT_TRUE(read_video_header(m, offset));
  EXPECT_EQ(offset, 32u);
}

TEST(WireFormat, ReadersSkipALongerHeaderFromANewerServer) {
  const VideoHeader h{false, 77, 88, 640, 480, 99};
  auto m = message_with(h, 8 + 3);
  set_header_bytes(m, 32);  // eight bytes of fields this reader does not know
  m[32] = 0xAA;
  size_t offset = 0;
  const auto back = read_video_header(m, offset);
  ASSERT_TRUE(back);
  expect_same(*back, h);
  EXPECT_EQ(offset, 32u);
  EXPECT_EQ(m[offset], 0xAA);
}

TEST(WireFormat, IgnoresUnknownFlagBits) {
  auto m = message_with(VideoHeader{false, 1, 2, 3, 4, 5});
  m[1] = 0xFE;  // every bit but the key-frame bit
  size_t offset = 0;
  const auto back = read_video_header(m, offset);
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->key);
}

// --- The client's half (web/src/protocol/messages.ts) must agree with this one. ---

std::string read_protocol_ts() {
  const std::string path = std::string(VOXL_SOURCE_DIR) + "/web/src/protocol/messages.ts";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::map<std::string, long> exported_numbers(const std::string& ts) {
  std::map<std::string, long> out;
  const std::regex re(R"(export\s+const\s+(\w+)\s*=\s*(\d+)\s*;)");
  for (auto it = std::sregex_iterator(ts.begin(), ts.end(), re); it != std::sregex_iterator(); ++it)
    out[(*it)[1].str()] = std::stol((*it)[2].str());
  return out;
}

struct TsRead {
  size_t offset = 0;
  size_t bytes = 0;
  bool little_endian = false;
};

// `name: v.getUint16(16, true)`, `name: Number(v.getBigUint64(8, true))`,
// `name: (v.getUint8(1) & ...)` and `const name = v.getUint16(2, true)`.
std::map<std::string, TsRead> dataview_reads(const std::string& ts) {
  std::map<std::string, TsRead> out;
  const std::regex re(
      R"((?:const\s+)?(\w+)\s*[:=]\s*(?:Number\()?\(*v\.get(Uint8|Uint16|Uint32|BigUint64)\((\d+)\s*(,\s*true\s*)?\))");
  const std::map<std::string, size_t> widths{{"Uint8", 1}, {"Uint16", 2}, {"Uint32", 4}, {"BigUint64", 8}};
  for (auto it = std::sregex_iterator(ts.begin(), ts.end(), re); it != std::sregex_iterator(); ++it)
    out[(*it)[1].str()] = {std::stoul((*it)[3].str()), widths.at((*it)[2].str()), (*it)[4].matched};
  return out;
}

TEST(WireFormatPin, ClientConstantsMatchTheServer) {
  const auto consts = exported_numbers(read_protocol_ts());
  ASSERT_TRUE(consts.contains("PROTOCOL_VERSION"));
  ASSERT_TRUE(consts.contains("KIND_VIDEO"));
  ASSERT_TRUE(consts.contains("FLAG_KEY_FRAME"));
  ASSERT_TRUE(consts.contains("VIDEO_HEADER_BYTES"));
  EXPECT_EQ(consts.at("PROTOCOL_VERSION"), kProtocolVersion);
  EXPECT_EQ(consts.at("KIND_VIDEO"), kKindVideo);
  EXPECT_EQ(consts.at("FLAG_KEY_FRAME"), kFlagKeyFrame);
  EXPECT_EQ(consts.at("VIDEO_HEADER_BYTES"), long(kVideoHeaderBytes));
}

TEST(WireFormatPin, ClientReadsTheStripeWhereTheServerWritesIt) {
  const auto reads = dataview_reads(read_protocol_ts());
  const VideoHeader h{true, 1, 2, 1920, 1080, 3};
  const VideoStripe stripe{0xA3, 0xB4, 0xC6D5, 0xE8F7, true};
  std::vector<uint8_t> m(kVideoHeaderWithStripeBytes, 0);
  write_video_header(h, VideoStamps{}, stripe, std::span<uint8_t, kVideoHeaderWithStripeBytes>(m.data(), m.size()));
  const std::map<std::string, uint64_t> expected{{"stripe", stripe.stripe},
                                                 {"stripes", stripe.stripes},
                                                 {"bandY", stripe.band_y},
                                                 {"bandHeight", stripe.band_height}};
  for (const auto& [field, value] : expected) {
    SCOPED_TRACE(field);
    ASSERT_TRUE(reads.contains(field)) << "messages.ts does not read " << field << " with a DataView getter";
    const TsRead& r = reads.at(field);
    EXPECT_TRUE(r.bytes == 1 || r.little_endian) << "multi-byte fields are little-endian";
    EXPECT_EQ(little_endian(m, r.offset, r.bytes), value) << "offset " << r.offset << ", " << r.bytes << " bytes";
  }
  EXPECT_EQ(exported_numbers(read_protocol_ts()).at("VIDEO_STRIPE_HEADER_BYTES"), long(kVideoHeaderWithStripeBytes));
}

TEST(WireFormatPin, ClientReadsEachFieldWhereTheServerWritesIt) {
  const auto reads = dataview_reads(read_protocol_ts());
  // Distinct bytes everywhere, so a wrong offset or width cannot match by chance.
  const VideoHeader h{true, 0x44332211u, 0xC8B7A69584736251ull, 0xB1A1, 0xD1C1, 0x9A8B7C6Du};
  const auto m = message_with(h);
  const std::map<std::string, uint64_t> expected{{"frameId", h.frame_id},   {"captureUs", h.capture_us},
                                                 {"width", h.width},         {"height", h.height},
                                                 {"serverUs", h.server_us}, {"headerBytes", kVideoHeaderBytes}};
  for (const auto& [field, value] : expected) {
    SCOPED_TRACE(field);
    ASSERT_TRUE(reads.contains(field)) << "messages.ts no longer reads " << field << " with a DataView getter";
    const TsRead& r = reads.at(field);
    EXPECT_TRUE(r.little_endian) << "multi-byte fields are little-endian";
    EXPECT_EQ(little_endian(m, r.offset, r.bytes), value) << "offset " << r.offset << ", " << r.bytes << " bytes";
  }
  // The key flag lives in the one byte that differs between a key and a delta frame.
  ASSERT_TRUE(reads.contains("key"));
  EXPECT_EQ(reads.at("key").bytes, 1u);
  VideoHeader delta = h;
  delta.key = false;
  const auto d = message_with(delta);
  for (size_t i = 0; i < kVideoHeaderBytes; ++i)
    EXPECT_EQ(m[i] != d[i], i == reads.at("key").offset) << "byte " << i;
  EXPECT_NE(read_protocol_ts().find("v.getUint8(0) !== KIND_VIDEO"), std::string::npos)
      << "the client should check the kind byte at offset 0";
}

TEST(WireFormatPin, ClientInputConstantsMatchTheServer) {
  const auto consts = exported_numbers(read_protocol_ts());
  const std::map<std::string, long> expected{
      {"MOD_SHIFT", input::kModShift},        {"MOD_CONTROL", input::kModControl},
      {"MOD_ALT", input::kModAlt},            {"MOD_META", input::kModMeta},
      {"MOD_CAPS_LOCK", input::kModCapsLock}, {"MOD_NUM_LOCK", input::kModNumLock},
      {"MOD_ALT_GRAPH", input::kModAltGraph}, {"MAX_CLIPBOARD_BYTES", long(input::kMaxClipboardBytes)}};
  for (const auto& [name, value] : expected) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(consts.contains(name));
    EXPECT_EQ(consts.at(name), value);
  }
}

// The settings' bounds, as the page names them (its panel checks a value
// before sending it; the server refuses what is out of range).
TEST(WireFormatPin, ClientSettingsBoundsMatchTheServer) {
  const auto consts = exported_numbers(read_protocol_ts());
  const std::map<std::string, long> expected{{"SETTINGS_MAX_FPS", ViewerSettings::kMaxFps},
                                             {"SETTINGS_MIN_KBPS", ViewerSettings::kMinKbps},
                                             {"SETTINGS_MAX_KBPS", ViewerSettings::kMaxKbps},
                                             {"SETTINGS_MAX_NAME_CHARS", long(ViewerSettings::kMaxNameChars)}};
  for (const auto& [name, value] : expected) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(consts.contains(name));
    EXPECT_EQ(consts.at(name), value);
  }
}

}  // namespace
}  // namespace voxl::stream
