// A minimal MP4 (ISO BMFF) muxer for one H.264 video track, fed the Annex B
// access units the viewers get: no re-encode. Layout: ftyp, mdat (written
// to the file as samples arrive), moov last with avcC from the first IDR's
// SPS/PPS, sample sizes, key frames and durations from capture timestamps
// (90 kHz). Only the sample tables stay in memory (about 13 bytes a frame),
// so long recordings cost disk, not RAM.
//
// Threads: one owner (RecordService's disk thread). Blocking: writes to the
// file, in the constructor too.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "platform/owned_file.h"

namespace voxl::endpoints {

class Mp4Writer {
 public:
  static constexpr uint32_t kTimescale = 90000;

  // Writes to `file` (not owned) from its current offset, which must be 0.
  Mp4Writer(platform::NativeFile file, Size size);

  // One access unit captured at `time_us` (any epoch; must not go back).
  // The first must be an IDR carrying SPS and PPS. False on a write error
  // or a bad first unit; `error()` says which.
  [[nodiscard]] bool add(std::span<const uint8_t> annex_b, bool key, int64_t time_us);
  // Writes the index; the last frame lasts until `end_us`. The file offset
  // is left at 0, ready to be sent. False on a write error.
  [[nodiscard]] bool finish(int64_t end_us);

  size_t frames() const { return sizes_.size(); }
  uint64_t bytes() const { return mdat_bytes_; }
  const std::string& error() const { return error_; }

 private:
  bool write_all(const void* data, size_t n);
  bool pwrite_all(const void* data, size_t n, uint64_t offset);
  // finish()'s steps: each sample's duration in kTimescale ticks (the
  // last lasts until `end_us`), the moov box, and its sample table.
  std::vector<uint32_t> sample_durations(int64_t end_us) const;
  void movie_box(std::vector<uint8_t>& m, const std::vector<uint32_t>& durations, uint64_t total,
                 uint64_t movie_ms) const;
  void sample_table(std::vector<uint8_t>& m, const std::vector<uint32_t>& durations) const;

  platform::NativeFile file_;
  Size size_;
  std::vector<uint8_t> sps_, pps_;
  std::vector<uint32_t> sizes_;
  std::vector<int64_t> times_us_;
  std::vector<uint32_t> keys_;  // 1-based sample numbers
  uint64_t mdat_start_ = 0;     // offset of the mdat box header
  uint64_t mdat_bytes_ = 0;     // payload written so far
  std::vector<uint8_t> scratch_;
  std::string error_;
  bool failed_ = false;
};

}  // namespace voxl::endpoints
