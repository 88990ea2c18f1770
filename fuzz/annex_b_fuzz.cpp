// The Annex B splitter (encode::split_annex_b) and what is read from its
// NAL units: IDR detection and the codec string. The NAL units found must
// lie inside the input, hold no start code and not end in a zero byte (but
// for empty ones); joined again with 4-byte start codes they split the same.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "encode/h264_bitstream.h"
#include "fuzz_check.h"

using namespace voxl::encode;

namespace VOXL_TEST_FILE {

bool has_start_code(std::span<const uint8_t> b) {
  for (size_t i = 0; i + 2 < b.size(); ++i)
    if (b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1) return true;
  return false;
}

std::vector<std::vector<uint8_t>> non_empty(const std::vector<NalUnit>& nals) {
  std::vector<std::vector<uint8_t>> out;
  for (const auto& n : nals)
    if (!n.bytes.empty()) out.emplace_back(n.bytes.begin(), n.bytes.end());
  return out;
}

}  // namespace

VOXL_FUZZ_TARGET(annex_b) {
  const std::span<const uint8_t> in(data, size);
  const auto nals = split_annex_b(in);
  bool idr = false;
  const uint8_t* last_end = data;
  for (const auto& n : nals) {
    FUZZ_CHECK(n.bytes.size() <= size);
    if (n.bytes.empty()) continue;
    FUZZ_CHECK(n.bytes.data() >= last_end && n.bytes.data() + n.bytes.size() <= data + size);
    last_end = n.bytes.data() + n.bytes.size();
    FUZZ_CHECK(!has_start_code(n.bytes) && n.bytes.back() != 0);
    FUZZ_CHECK(n.type() >= 0 && n.type() < 32);
    idr = idr || n.type() == kNalIdr;
  }
  FUZZ_CHECK(contains_idr(in) == idr);

  std::vector<uint8_t> joined;
  const auto units = non_empty(nals);
  for (const auto& u : units) {
    joined.insert(joined.end(), {0, 0, 0, 1});
    joined.insert(joined.end(), u.begin(), u.end());
  }
  FUZZ_CHECK(non_empty(split_annex_b(joined)) == units);

  if (const auto codec = codec_string(in)) {
    FUZZ_CHECK(codec->size() == 11 && codec->rfind("avc1.", 0) == 0);
    bool sps = false;
    for (const auto& n : nals) sps = sps || n.type() == kNalSps;
    FUZZ_CHECK(sps);
  }
  for (const auto& n : nals)
    if (const auto info = read_sps_info(n.bytes))
      FUZZ_CHECK(n.type() == kNalSps && info->profile_idc == n.bytes[1] && info->level_idc == n.bytes[3]);
  return 0;
}
