#include "endpoints/mp4_writer.h"

#include "encode/h264_bitstream.h"

namespace voxl::endpoints {

namespace {

// Big-endian box building into a byte vector.
class Box {
 public:
  explicit Box(std::vector<uint8_t>& out, const char* type) : out_(out), start_(out.size()) {
    u32(0);
    out_.insert(out_.end(), type, type + 4);
  }
  ~Box() {
    const uint32_t n = uint32_t(out_.size() - start_);
    for (int i = 0; i < 4; ++i) out_[start_ + size_t(i)] = uint8_t(n >> (24 - 8 * i));
  }
  Box(const Box&) = delete;
  Box& operator=(const Box&) = delete;

  void u8(uint32_t v) { out_.push_back(uint8_t(v)); }
  void u16(uint32_t v) { u8(v >> 8), u8(v); }
  void u32(uint32_t v) { u16(v >> 16), u16(v); }
  void u64(uint64_t v) { u32(uint32_t(v >> 32)), u32(uint32_t(v)); }
  void zeros(size_t n) { out_.insert(out_.end(), n, 0); }
  void bytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void full(uint8_t version, uint32_t flags) { u32(uint32_t(version) << 24 | flags); }
  void matrix() {
    for (uint32_t v : {0x10000u, 0u, 0u, 0u, 0x10000u, 0u, 0u, 0u, 0x40000000u}) u32(v);
  }

 private:
  std::vector<uint8_t>& out_;
  size_t start_;
};

int64_t ticks(int64_t us) { return (us * Mp4Writer::kTimescale + 500000) / 1000000; }

}  // namespace

Mp4Writer::Mp4Writer(platform::NativeFile file, Size size) : file_(file), size_(size) {
  std::vector<uint8_t> head;
  {
    Box ftyp(head, "ftyp");
    for (const char* b : {"isom"}) head.insert(head.end(), b, b + 4);
    ftyp.u32(0x200);
    for (const char* b : {"isom", "iso2", "avc1", "mp41"}) head.insert(head.end(), b, b + 4);
  }
  mdat_start_ = head.size();
  // A 64-bit mdat header, its size filled in by finish().
  for (uint8_t b : {0, 0, 0, 1}) head.push_back(b);
  for (char c : std::string("mdat")) head.push_back(uint8_t(c));
  head.insert(head.end(), 8, 0);
  write_all(head.data(), head.size());
}

bool Mp4Writer::write_all(const void* data, size_t n) {
  if (failed_) return false;
  std::string why;
  if (!platform::write_all(file_, data, n, why)) {
    failed_ = true;
    error_ = "cannot write the recording: " + why;
  }
  return !failed_;
}

bool Mp4Writer::pwrite_all(const void* data, size_t n, uint64_t offset) {
  if (failed_) return false;
  std::string why;
  if (!platform::write_at(file_, data, n, offset, why)) {
    failed_ = true;
    error_ = "cannot write the recording: " + why;
  }
  return !failed_;
}

bool Mp4Writer::add(std::span<const uint8_t> annex_b, bool key, int64_t time_us) {
  if (failed_) return false;
  const auto nals = encode::split_annex_b(annex_b);
  if (sizes_.empty()) {
    for (const auto& n : nals) {
      if (n.type() == encode::kNalSps && sps_.empty()) sps_.assign(n.bytes.begin(), n.bytes.end());
      if (n.type() == encode::kNalPps && pps_.empty()) pps_.assign(n.bytes.begin(), n.bytes.end());
    }
    if (!key || sps_.size() < 4 || pps_.empty()) {
      error_ = "a recording must start with a key frame carrying SPS and PPS";
      return false;
    }
  }
  // Length-prefixed NAL units; parameter sets live in avcC, access unit
  // delimiters and filler are not needed.
  scratch_.clear();
  for (const auto& n : nals) {
    const int t = n.type();
    if (t == encode::kNalSps || t == encode::kNalPps || t == 9 || t == 12 || n.bytes.empty()) continue;
    const uint32_t len = uint32_t(n.bytes.size());
    for (int i = 0; i < 4; ++i) scratch_.push_back(uint8_t(len >> (24 - 8 * i)));
    scratch_.insert(scratch_.end(), n.bytes.begin(), n.bytes.end());
  }
  if (scratch_.empty()) return true;  // nothing to show
  if (!times_us_.empty()) time_us = std::max(time_us, times_us_.back());
  if (!write_all(scratch_.data(), scratch_.size())) return false;
  mdat_bytes_ += scratch_.size();
  sizes_.push_back(uint32_t(scratch_.size()));
  times_us_.push_back(time_us);
  if (key) keys_.push_back(uint32_t(sizes_.size()));
  return true;
}

bool Mp4Writer::finish(int64_t end_us) {
  if (failed_) return false;
  if (sizes_.empty()) {
    error_ = "no frame was recorded";
    return false;
  }
  const std::vector<uint32_t> durations = sample_durations(end_us);
  uint64_t total = 0;
  for (uint32_t d : durations) total += d;
  const uint64_t movie_ms = (total * 1000 + kTimescale / 2) / kTimescale;

  std::vector<uint8_t> m;
  movie_box(m, durations, total, movie_ms);
  if (!write_all(m.data(), m.size())) return false;
  uint8_t size64[8];
  const uint64_t mdat_size = 16 + mdat_bytes_;
  for (int i = 0; i < 8; ++i) size64[i] = uint8_t(mdat_size >> (56 - 8 * i));
  if (!pwrite_all(size64, 8, mdat_start_ + 8)) return false;
  if (std::string why; !platform::rewind(file_, why)) {
    failed_ = true;
    error_ = "cannot rewind the recording: " + why;
    return false;
  }
  return true;
}

std::vector<uint32_t> Mp4Writer::sample_durations(int64_t end_us) const {
  const int64_t t0 = times_us_.front();
  // Durations from rounded absolute times, so they add up without drift.
  std::vector<uint32_t> durations(sizes_.size());
  for (size_t i = 0; i < sizes_.size(); ++i) {
    const int64_t next = i + 1 < sizes_.size() ? times_us_[i + 1] : std::max(end_us, times_us_[i]);
    durations[i] = uint32_t(std::max<int64_t>(1, ticks(next - t0) - ticks(times_us_[i] - t0)));
  }
  return durations;
}

void Mp4Writer::movie_box(std::vector<uint8_t>& m, const std::vector<uint32_t>& durations, uint64_t total,
                          uint64_t movie_ms) const {
  Box moov(m, "moov");
  {
    Box mvhd(m, "mvhd");
    mvhd.full(1, 0);
    mvhd.u64(0), mvhd.u64(0);  // creation, modification
    mvhd.u32(1000), mvhd.u64(movie_ms);
    mvhd.u32(0x10000), mvhd.u16(0x100), mvhd.zeros(10);
    mvhd.matrix();
    mvhd.zeros(24);
    mvhd.u32(2);  // next track id
  }
  Box trak(m, "trak");
  {
    Box tkhd(m, "tkhd");
    tkhd.full(1, 3);  // enabled, in movie
    tkhd.u64(0), tkhd.u64(0);
    tkhd.u32(1), tkhd.u32(0), tkhd.u64(movie_ms);
    tkhd.zeros(8), tkhd.u16(0), tkhd.u16(0), tkhd.u16(0), tkhd.u16(0);
    tkhd.matrix();
    tkhd.u32(uint32_t(size_.width) << 16), tkhd.u32(uint32_t(size_.height) << 16);
  }
  Box mdia(m, "mdia");
  {
    Box mdhd(m, "mdhd");
    mdhd.full(1, 0);
    mdhd.u64(0), mdhd.u64(0);
    mdhd.u32(kTimescale), mdhd.u64(total);
    mdhd.u16(0x55c4), mdhd.u16(0);  // language "und"
  }
  {
    Box hdlr(m, "hdlr");
    hdlr.full(0, 0);
    hdlr.u32(0);
    for (char c : std::string("vide")) hdlr.u8(uint8_t(c));
    hdlr.zeros(12);
    for (char c : std::string("voxl video")) hdlr.u8(uint8_t(c));
    hdlr.u8(0);
  }
  Box minf(m, "minf");
  {
    Box vmhd(m, "vmhd");
    vmhd.full(0, 1);
    vmhd.zeros(8);
  }
  {
    Box dinf(m, "dinf");
    Box dref(m, "dref");
    dref.full(0, 0);
    dref.u32(1);
    Box url(m, "url ");
    url.full(0, 1);  // the media is in this file
  }
  sample_table(m, durations);
}

void Mp4Writer::sample_table(std::vector<uint8_t>& m, const std::vector<uint32_t>& durations) const {
  Box stbl(m, "stbl");
  {
    Box stsd(m, "stsd");
    stsd.full(0, 0);
    stsd.u32(1);
    Box avc1(m, "avc1");
    avc1.zeros(6), avc1.u16(1);
    avc1.zeros(16);
    avc1.u16(uint32_t(size_.width)), avc1.u16(uint32_t(size_.height));
    avc1.u32(0x00480000), avc1.u32(0x00480000), avc1.u32(0);
    avc1.u16(1);
    avc1.zeros(32);  // compressor name
    avc1.u16(0x18), avc1.u16(0xffff);
    Box avcc(m, "avcC");
    avcc.u8(1), avcc.u8(sps_[1]), avcc.u8(sps_[2]), avcc.u8(sps_[3]);
    avcc.u8(0xff);  // 4-byte NAL lengths
    avcc.u8(0xe1), avcc.u16(uint32_t(sps_.size())), avcc.bytes(sps_);
    avcc.u8(1), avcc.u16(uint32_t(pps_.size())), avcc.bytes(pps_);
  }
  {
    Box stts(m, "stts");
    stts.full(0, 0);
    std::vector<std::pair<uint32_t, uint32_t>> runs;
    for (uint32_t d : durations) {
      if (!runs.empty() && runs.back().second == d) ++runs.back().first;
      else runs.emplace_back(1, d);
    }
    stts.u32(uint32_t(runs.size()));
    for (const auto& [count, d] : runs) stts.u32(count), stts.u32(d);
  }
  {
    Box stss(m, "stss");
    stss.full(0, 0);
    stss.u32(uint32_t(keys_.size()));
    for (uint32_t k : keys_) stss.u32(k);
  }
  {
    Box stsc(m, "stsc");  // every sample in one chunk
    stsc.full(0, 0);
    stsc.u32(1), stsc.u32(1), stsc.u32(uint32_t(sizes_.size())), stsc.u32(1);
  }
  {
    Box stsz(m, "stsz");
    stsz.full(0, 0);
    stsz.u32(0), stsz.u32(uint32_t(sizes_.size()));
    for (uint32_t s : sizes_) stsz.u32(s);
  }
  {
    Box co64(m, "co64");
    co64.full(0, 0);
    co64.u32(1), co64.u64(mdat_start_ + 16);
  }
}

}  // namespace voxl::endpoints
