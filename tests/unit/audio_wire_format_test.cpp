// The audio half of the wire format (kinds 2 and 3), and its pin against
// web/src/protocol/messages.ts.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "stream/viewer/wire_format.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

std::vector<uint8_t> audio_message(const AudioHeader& h, size_t payload_bytes = 0) {
  std::vector<uint8_t> m(kAudioHeaderBytes + payload_bytes, 0xEE);
  write_audio_header(h, std::span<uint8_t, kAudioHeaderBytes>(m.data(), kAudioHeaderBytes));
  return m;
}

uint64_t little_endian(const std::vector<uint8_t>& m, size_t offset, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v |= uint64_t(m.at(offset + i)) << (8 * i);
  return v;
}

TEST(AudioWireFormat, WritesTheDocumentedLayout) {
  const AudioHeader h{kKindAudio, 0x04030201u, 0x0c0b0a0908070605ull};
  const auto m = audio_message(h, 3);
  EXPECT_EQ(m[0], kKindAudio);
  EXPECT_EQ(m[1], 0);
  EXPECT_EQ(little_endian(m, 2, 2), kAudioHeaderBytes);
  EXPECT_EQ(little_endian(m, 4, 4), h.sequence);
  EXPECT_EQ(little_endian(m, 8, 8), h.capture_us);
  EXPECT_EQ(m[kAudioHeaderBytes], 0xEE);  // the payload is left alone
}

TEST(AudioWireFormat, RoundTripsBothKindsAndExtremes) {
  for (uint8_t kind : {kKindAudio, kKindMicrophone}) {
    for (const AudioHeader& h : {AudioHeader{kind, 0, 0},
                                 AudioHeader{kind, std::numeric_limits<uint32_t>::max(),
                                             std::numeric_limits<uint64_t>::max()}}) {
      const auto m = audio_message(h, 7);
      size_t offset = 0;
      const auto back = read_audio_header(m, kind, offset);
      ASSERT_TRUE(back);
      EXPECT_EQ(back->kind, kind);
      EXPECT_EQ(back->sequence, h.sequence);
      EXPECT_EQ(back->capture_us, h.capture_us);
      EXPECT_EQ(offset, kAudioHeaderBytes);
    }
  }
}

TEST(AudioWireFormat, RejectsShortOtherKindAndBadHeaderBytes) {
  auto m = audio_message(AudioHeader{kKindMicrophone, 1, 2}, 4);  // 20 bytes
  size_t offset = 0;
  for (size_t n = 0; n < kAudioHeaderBytes; ++n)
    EXPECT_FALSE(read_audio_header(std::span<const uint8_t>(m.data(), n), kKindMicrophone, offset)) << n;
  EXPECT_FALSE(read_audio_header(m, kKindAudio, offset)) << "asked for the other kind";
  for (uint16_t n : {0, 15, 21, 65535}) {
    m[2] = uint8_t(n & 0xff);
    m[3] = uint8_t(n >> 8);
    EXPECT_FALSE(read_audio_header(m, kKindMicrophone, offset)) << "header_bytes " << n;
  }
  m[2] = 20;  // the whole message: an empty payload, still valid
  m[3] = 0;
  ASSERT_TRUE(read_audio_header(m, kKindMicrophone, offset));
  EXPECT_EQ(offset, 20u);
}

TEST(AudioWireFormat, VideoReaderRejectsAudioAndBack) {
  const auto a = audio_message(AudioHeader{kKindAudio, 1, 2}, 16);
  size_t offset = 0;
  EXPECT_FALSE(read_video_header(a, offset));
  std::vector<uint8_t> v(kVideoHeaderBytes, 0);
  write_video_header(VideoHeader{true, 1, 2, 3, 4, 5}, std::span<uint8_t, kVideoHeaderBytes>(v.data(), v.size()));
  EXPECT_FALSE(read_audio_header(v, kKindAudio, offset));
}

// --- web/src/protocol/messages.ts must agree. ---

std::string protocol_ts() {
  std::ifstream in(std::string(VOXL_SOURCE_DIR) + "/web/src/protocol/messages.ts");
  EXPECT_TRUE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(AudioWireFormatPin, ClientConstantsMatch) {
  const std::string ts = protocol_ts();
  std::map<std::string, long> consts;
  const std::regex re(R"(export\s+const\s+(\w+)\s*=\s*(\d+)\s*;)");
  for (auto it = std::sregex_iterator(ts.begin(), ts.end(), re); it != std::sregex_iterator(); ++it)
    consts[(*it)[1].str()] = std::stol((*it)[2].str());
  ASSERT_TRUE(consts.contains("KIND_AUDIO"));
  ASSERT_TRUE(consts.contains("KIND_MICROPHONE"));
  ASSERT_TRUE(consts.contains("AUDIO_HEADER_BYTES"));
  EXPECT_EQ(consts.at("KIND_AUDIO"), kKindAudio);
  EXPECT_EQ(consts.at("KIND_MICROPHONE"), kKindMicrophone);
  EXPECT_EQ(consts.at("AUDIO_HEADER_BYTES"), long(kAudioHeaderBytes));
}

// The client reads and writes the audio header with `a.getUint32(4, true)`
// style accessors on a DataView named `a`: each field at the server's offset.
TEST(AudioWireFormatPin, ClientFieldsAtTheServersOffsets) {
  const std::string ts = protocol_ts();
  const std::regex re(R"(\ba\.(get|set)(Uint8|Uint16|Uint32|BigUint64)\((\d+))");
  std::map<std::string, std::vector<unsigned long>> seen;  // "getUint32" -> offsets
  for (auto it = std::sregex_iterator(ts.begin(), ts.end(), re); it != std::sregex_iterator(); ++it)
    seen[(*it)[1].str() + (*it)[2].str()].push_back(std::stoul((*it)[3].str()));
  for (const char* op : {"get", "set"}) {
    SCOPED_TRACE(op);
    EXPECT_EQ(seen[std::string(op) + "Uint16"], std::vector<unsigned long>{2}) << "header_bytes at 2";
    EXPECT_EQ(seen[std::string(op) + "Uint32"], std::vector<unsigned long>{4}) << "sequence at 4";
    EXPECT_EQ(seen[std::string(op) + "BigUint64"], std::vector<unsigned long>{8}) << "capture_us at 8";
  }
}

}  // namespace
}  // namespace voxl::stream
