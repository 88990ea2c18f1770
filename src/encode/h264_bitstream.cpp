#include "encode/h264_bitstream.h"

#include <cstdio>

namespace voxl::encode {

std::vector<NalUnit> split_annex_b(std::span<const uint8_t> s) {
  std::vector<NalUnit> out;
  const size_t n = s.size();
  size_t start = std::string::npos;  // first byte of the current NAL
  size_t i = 0;
  while (i + 2 < n) {
    if (s[i] == 0 && s[i + 1] == 0 && s[i + 2] == 1) {
      if (start != std::string::npos) {
        // A 4-byte start code's leading zero belongs to it, not the NAL.
        size_t end = i;
        while (end > start && s[end - 1] == 0) --end;
        out.push_back({s.subspan(start, end - start)});
      }
      i += 3;
      start = i;
    } else {
      ++i;
    }
  }
  if (start != std::string::npos && start < n) {
    // Trailing zeros end the stream; a NAL unit never ends with a zero byte.
    size_t end = n;
    while (end > start && s[end - 1] == 0) --end;
    if (end > start) out.push_back({s.subspan(start, end - start)});
  }
  return out;
}

bool contains_idr(std::span<const uint8_t> stream) {
  for (const NalUnit& nal : split_annex_b(stream))
    if (nal.type() == kNalIdr) return true;
  return false;
}

std::optional<SpsInfo> read_sps_info(std::span<const uint8_t> sps) {
  if (sps.size() < 4 || (sps[0] & 0x1f) != kNalSps) return std::nullopt;
  return SpsInfo{sps[1], sps[2], sps[3]};
}

std::optional<std::string> codec_string(std::span<const uint8_t> stream) {
  for (const NalUnit& nal : split_annex_b(stream)) {
    if (nal.type() != kNalSps) continue;
    const auto info = read_sps_info(nal.bytes);
    if (!info) return std::nullopt;
    char buf[16];
    std::snprintf(buf, sizeof buf, "avc1.%02X%02X%02X", unsigned(info->profile_idc),
                  unsigned(info->constraint_flags), unsigned(info->level_idc));
    return std::string(buf);
  }
  return std::nullopt;
}

}  // namespace voxl::encode
