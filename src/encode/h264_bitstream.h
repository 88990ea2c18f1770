// Reading H.264 Annex B streams: NAL unit boundaries, the SPS fields that
// name the codec for WebCodecs ("avc1.PPCCLL") and IDR detection. Pure
// functions; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace voxl::encode {

struct NalUnit {
  std::span<const uint8_t> bytes;  // without the start code
  int type() const { return bytes.empty() ? -1 : bytes[0] & 0x1f; }
};

inline constexpr int kNalIdr = 5;
inline constexpr int kNalSps = 7;
inline constexpr int kNalPps = 8;

// Splits at 3- and 4-byte start codes; bytes before the first start code
// are ignored.
std::vector<NalUnit> split_annex_b(std::span<const uint8_t> stream);

bool contains_idr(std::span<const uint8_t> stream);

struct SpsInfo {
  int profile_idc = 0;
  int constraint_flags = 0;  // the byte after profile_idc
  int level_idc = 0;
};

// The first three bytes of an SPS payload (after the NAL header byte).
std::optional<SpsInfo> read_sps_info(std::span<const uint8_t> sps_nal);

// "avc1.42E028" and the like, from the stream's SPS; nullopt without one.
std::optional<std::string> codec_string(std::span<const uint8_t> stream);

}  // namespace voxl::encode
