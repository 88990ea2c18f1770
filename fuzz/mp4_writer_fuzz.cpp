// The MP4 writer fed what a recording gets: access units (arbitrary Annex B
// bytes, now and then built around a real SPS/PPS/IDR), key flags, capture
// times and a picture size, into a memfd. When the writer says it finished,
// the file must be exactly ftyp + mdat + moov with consistent box sizes,
// an mdat as long as the samples it reported, and a sample table that
// adds up to it.
#include <fuzzer/FuzzedDataProvider.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "endpoints/mp4_writer.h"
#include "fuzz_check.h"

namespace VOXL_TEST_FILE {

using voxl::endpoints::Mp4Writer;

uint64_t be(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

struct BoxRef {
  std::string type;
  size_t start = 0, size = 0, header = 0;
};

// The boxes laid end to end in [begin, end); aborts if one does not fit.
std::vector<BoxRef> boxes(const std::vector<uint8_t>& f, size_t begin, size_t end) {
  std::vector<BoxRef> out;
  for (size_t at = begin; at < end;) {
    FUZZ_CHECK(end - at >= 8);
    BoxRef b{std::string(reinterpret_cast<const char*>(&f[at + 4]), 4), at, size_t(be(&f[at], 4)), 8};
    if (b.size == 1) {
      FUZZ_CHECK(end - at >= 16);
      b.size = size_t(be(&f[at + 8], 8));
      b.header = 16;
    }
    FUZZ_CHECK(b.size >= b.header && b.size <= end - at);
    out.push_back(b);
    at += b.size;
  }
  return out;
}

const BoxRef* find(const std::vector<BoxRef>& list, const char* type) {
  for (const auto& b : list)
    if (b.type == type) return &b;
  return nullptr;
}

std::vector<BoxRef> children(const std::vector<uint8_t>& f, const BoxRef* b, size_t skip = 0) {
  FUZZ_CHECK(b != nullptr);
  return boxes(f, b->start + b->header + skip, b->start + b->size);
}

void check_file(int fd, const Mp4Writer& w) {
  FUZZ_CHECK(lseek(fd, 0, SEEK_CUR) == 0);
  const off_t len = lseek(fd, 0, SEEK_END);
  FUZZ_CHECK(len > 0);
  std::vector<uint8_t> f(static_cast<size_t>(len));
  FUZZ_CHECK(pread(fd, f.data(), f.size(), 0) == ssize_t(f.size()));
  const auto top = boxes(f, 0, f.size());
  FUZZ_CHECK(top.size() == 3 && top[0].type == "ftyp" && top[1].type == "mdat" && top[2].type == "moov");
  FUZZ_CHECK(top[1].header == 16 && top[1].size == 16 + w.bytes());
  const auto moov = children(f, &top[2]);
  const auto trak = children(f, find(moov, "trak"));
  const auto mdia = children(f, find(trak, "mdia"));
  const auto minf = children(f, find(mdia, "minf"));
  const auto stbl = children(f, find(minf, "stbl"));
  const BoxRef* stsz = find(stbl, "stsz");
  FUZZ_CHECK(stsz && stsz->size >= 20);
  const uint64_t count = be(&f[stsz->start + 16], 4);
  FUZZ_CHECK(count == w.frames() && stsz->size == 20 + 4 * count);
  uint64_t total = 0;
  for (uint64_t i = 0; i < count; ++i) total += be(&f[stsz->start + 20 + 4 * i], 4);
  FUZZ_CHECK(total == w.bytes());
  const BoxRef* co64 = find(stbl, "co64");
  FUZZ_CHECK(co64 && be(&f[co64->start + 16], 8) == top[1].start + 16);
  // Each sample is whole length-prefixed NAL units.
  size_t at = top[1].start + 16;
  for (uint64_t i = 0; i < count; ++i) {
    const size_t end = at + be(&f[stsz->start + 20 + 4 * i], 4);
    while (at < end) {
      FUZZ_CHECK(end - at >= 4);
      at += 4 + be(&f[at], 4);
      FUZZ_CHECK(at <= end);
    }
  }
}

std::vector<uint8_t> access_unit(FuzzedDataProvider& in) {
  std::vector<uint8_t> au;
  if (in.ConsumeBool()) {
    // SPS (Baseline 3.1), PPS, then an IDR or another slice.
    au = {0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1f, 0xda, 0, 0, 0, 1, 0x68, 0xce, 0x3c, 0x80, 0, 0, 1};
    au.push_back(in.ConsumeBool() ? 0x65 : 0x41);
  }
  const auto tail = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 512));
  au.insert(au.end(), tail.begin(), tail.end());
  return au;
}

}  // namespace

VOXL_FUZZ_TARGET(mp4_writer) {
  static const int fd = memfd_create("mp4-fuzz", MFD_CLOEXEC);
  FUZZ_CHECK(fd >= 0);
  FUZZ_CHECK(ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0);
  FuzzedDataProvider in(data, size);
  const voxl::Size picture{in.ConsumeIntegralInRange<int>(1, 8192), in.ConsumeIntegralInRange<int>(1, 8192)};
  // Capture times as a steady clock gives them, in µs: any start, steps of
  // up to a day, now and then backwards (the writer must cope).
  int64_t t = in.ConsumeIntegralInRange<int64_t>(0, int64_t(1) << 52);
  Mp4Writer w(fd, picture);
  size_t frames = 0;
  const size_t n = in.ConsumeIntegralInRange<size_t>(0, 64);
  for (size_t i = 0; i < n && in.remaining_bytes() > 0; ++i) {
    const bool key = in.ConsumeBool();
    t += in.ConsumeIntegralInRange<int64_t>(-1000000, 86400000000);
    const auto au = access_unit(in);
    const size_t before = w.frames();
    const bool ok = w.add(au, key, t);
    if (before == 0 && !ok) {
      FUZZ_CHECK(w.frames() == 0 && !w.error().empty());
      continue;
    }
    FUZZ_CHECK(ok);  // once started, only a write error stops it
    FUZZ_CHECK(w.frames() - before <= 1);
    frames = w.frames();
  }
  const bool finished = w.finish(t + in.ConsumeIntegralInRange<int64_t>(-1000000, 3600000000));
  FUZZ_CHECK(finished == (frames > 0));
  if (finished) check_file(fd, w);
  return 0;
}
