// The MP4 muxer read back box by box: the layout, avcC from the stream's
// SPS/PPS, one sample per access unit with its size, key frames, and
// durations from the capture times.
#include "endpoints/mp4_writer.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>
#include <stdio.h>
#include <unistd.h>

#include <cstring>
#include <map>

#include "encode/h264_bitstream.h"
#include "encode/i420_image.h"
#include "encode/x264_encoder.h"

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

constexpr Size kSize{320, 240};

Logger null_logger() {
  return std::make_shared<spdlog::logger>("mp4-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

std::vector<std::vector<uint8_t>> encode_frames(int n, std::vector<bool>& keys) {
  encode::X264Encoder enc(kSize, encode::EncoderSettings{}, null_logger());
  std::vector<std::vector<uint8_t>> out;
  for (int i = 0; i < n; ++i) {
    encode::I420Image img(kSize);
    std::memset(img.y(), 16 + i * 8, size_t(img.stride_y()) * size_t(kSize.height));
    std::memset(img.u(), 128, size_t(img.stride_uv()) * size_t(kSize.height / 2));
    std::memset(img.v(), 128, size_t(img.stride_uv()) * size_t(kSize.height / 2));
    std::vector<uint8_t> au;
    bool key = false;
    EXPECT_TRUE(enc.encode(img, i * 16667, i == 0, au, key));
    keys.push_back(key);
    out.push_back(std::move(au));
  }
  return out;
}

std::vector<uint8_t> read_all(int fd) {
  std::vector<uint8_t> data;
  uint8_t buf[65536];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) data.insert(data.end(), buf, buf + n);
  return data;
}

uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }
uint64_t be64(const uint8_t* p) { return uint64_t(be32(p)) << 32 | be32(p + 4); }

struct BoxRef {
  size_t offset = 0;  // of the payload
  size_t size = 0;    // of the payload
};

// Walks a box tree; `containers` are descended into. Paths like "moov/trak".
void walk(const std::vector<uint8_t>& d, size_t begin, size_t end, const std::string& prefix,
          std::map<std::string, BoxRef>& out) {
  static const std::vector<std::string> containers = {"moov", "trak", "mdia", "minf", "stbl", "dinf"};
  size_t at = begin;
  while (at + 8 <= end) {
    uint64_t size = be32(&d[at]);
    const std::string type(reinterpret_cast<const char*>(&d[at + 4]), 4);
    size_t header = 8;
    if (size == 1) {
      size = be64(&d[at + 8]);
      header = 16;
    }
    ASSERT_GE(size, header) << type;
    ASSERT_LE(at + size, end) << type;
    const std::string path = prefix.empty() ? type : prefix + "/" + type;
    out[path] = {at + header, size_t(size) - header};
    for (const auto& c : containers)
      if (c == type) walk(d, at + header, at + size, path, out);
    at += size;
  }
  EXPECT_EQ(at, end) << "boxes under '" << prefix << "' do not add up";
}

TEST(Mp4Writer, WritesABoxTreeThatReadsBack) {
  std::vector<bool> keys;
  const auto frames = encode_frames(10, keys);
  ASSERT_TRUE(keys[0]);
  FILE* tmp = std::tmpfile();
  ASSERT_NE(tmp, nullptr);
  const int fd = fileno(tmp);

  Mp4Writer w(fd, kSize);
  const int64_t t0 = 5'000'000;
  // 10 frames 20 ms apart, then 300 ms until the end.
  for (size_t i = 0; i < frames.size(); ++i) ASSERT_TRUE(w.add(frames[i], keys[i], t0 + int64_t(i) * 20000));
  ASSERT_TRUE(w.finish(t0 + 9 * 20000 + 300000)) << w.error();
  EXPECT_EQ(w.frames(), 10u);
  EXPECT_EQ(::lseek(fd, 0, SEEK_CUR), 0);

  const auto data = read_all(fd);
  std::fclose(tmp);
  std::map<std::string, BoxRef> boxes;
  walk(data, 0, data.size(), "", boxes);
  for (const char* p : {"ftyp", "mdat", "moov/mvhd", "moov/trak/tkhd", "moov/trak/mdia/mdhd",
                        "moov/trak/mdia/minf/stbl/stsd", "moov/trak/mdia/minf/stbl/stts",
                        "moov/trak/mdia/minf/stbl/stsz", "moov/trak/mdia/minf/stbl/stss",
                        "moov/trak/mdia/minf/stbl/co64"})
    ASSERT_TRUE(boxes.count(p)) << p;

  // Sample sizes add up to mdat, and each sample is length-prefixed NALs
  // without parameter sets.
  const BoxRef stsz = boxes["moov/trak/mdia/minf/stbl/stsz"];
  ASSERT_EQ(be32(&data[stsz.offset + 8]), 10u);
  const BoxRef mdat = boxes["mdat"];
  const BoxRef co64 = boxes["moov/trak/mdia/minf/stbl/co64"];
  EXPECT_EQ(be64(&data[co64.offset + 8]), mdat.offset);
  size_t at = mdat.offset, total = 0;
  for (uint32_t i = 0; i < 10; ++i) {
    const uint32_t sample = be32(&data[stsz.offset + 12 + 4 * i]);
    total += sample;
    size_t p = at;
    while (p < at + sample) {
      const uint32_t len = be32(&data[p]);
      const int type = data[p + 4] & 0x1f;
      EXPECT_NE(type, encode::kNalSps);
      EXPECT_NE(type, encode::kNalPps);
      if (i == 0) {
        EXPECT_TRUE(type == encode::kNalIdr || type == 6) << type;  // IDR slices (and SEI)
      }
      p += 4 + len;
    }
    EXPECT_EQ(p, at + sample) << "sample " << i;
    at += sample;
  }
  EXPECT_EQ(total, mdat.size);

  // 90 kHz: nine gaps of 1800 ticks and a last frame of 27000.
  const BoxRef stts = boxes["moov/trak/mdia/minf/stbl/stts"];
  ASSERT_EQ(be32(&data[stts.offset + 4]), 2u);
  EXPECT_EQ(be32(&data[stts.offset + 8]), 9u);
  EXPECT_EQ(be32(&data[stts.offset + 12]), 1800u);
  EXPECT_EQ(be32(&data[stts.offset + 16]), 1u);
  EXPECT_EQ(be32(&data[stts.offset + 20]), 27000u);
  const BoxRef mdhd = boxes["moov/trak/mdia/mdhd"];
  EXPECT_EQ(be32(&data[mdhd.offset + 20]), Mp4Writer::kTimescale);
  EXPECT_EQ(be64(&data[mdhd.offset + 24]), 9u * 1800 + 27000);
  const BoxRef mvhd = boxes["moov/mvhd"];
  EXPECT_EQ(be64(&data[mvhd.offset + 24]), 480u);  // ms

  const BoxRef stss = boxes["moov/trak/mdia/minf/stbl/stss"];
  EXPECT_GE(be32(&data[stss.offset + 4]), 1u);
  EXPECT_EQ(be32(&data[stss.offset + 8]), 1u);

  // avcC carries the stream's SPS and PPS.
  const BoxRef stsd = boxes["moov/trak/mdia/minf/stbl/stsd"];
  const uint8_t* avc1 = &data[stsd.offset + 8];
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(avc1 + 4), 4), "avc1");
  EXPECT_EQ(be32(avc1 + 8 + 24) >> 16, uint32_t(kSize.width));
  const uint8_t* avcc = avc1 + 8 + 78;
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(avcc + 4), 4), "avcC");
  std::vector<uint8_t> sps, pps;
  for (const auto& n : encode::split_annex_b(frames[0])) {
    if (n.type() == encode::kNalSps) sps.assign(n.bytes.begin(), n.bytes.end());
    if (n.type() == encode::kNalPps) pps.assign(n.bytes.begin(), n.bytes.end());
  }
  const uint8_t* c = avcc + 8;
  EXPECT_EQ(c[0], 1);
  EXPECT_EQ(c[1], sps[1]);
  EXPECT_EQ(c[3], sps[3]);
  EXPECT_EQ(c[4], 0xff);
  EXPECT_EQ(c[5], 0xe1);
  const size_t sps_len = size_t(c[6]) << 8 | c[7];
  EXPECT_EQ(std::vector<uint8_t>(c + 8, c + 8 + sps_len), sps);
  EXPECT_EQ(c[8 + sps_len], 1);
  const size_t pps_len = size_t(c[9 + sps_len]) << 8 | c[10 + sps_len];
  EXPECT_EQ(std::vector<uint8_t>(c + 11 + sps_len, c + 11 + sps_len + pps_len), pps);
}

TEST(Mp4Writer, RefusesToStartWithoutAKeyFrame) {
  std::vector<bool> keys;
  const auto frames = encode_frames(2, keys);
  FILE* tmp = std::tmpfile();
  ASSERT_NE(tmp, nullptr);
  Mp4Writer w(fileno(tmp), kSize);
  EXPECT_FALSE(w.add(frames[1], false, 0));
  EXPECT_FALSE(w.error().empty());
  EXPECT_FALSE(w.finish(1000));
  std::fclose(tmp);
}

}  // namespace
}  // namespace voxl::endpoints
