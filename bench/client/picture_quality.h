// Picture quality for the benchmark viewer: the PSNR between what a viewer
// decoded and what the workload drew for the counter read from its marker
// (bench/workloads/expected_picture.h), the marker's cells left out.
//
// Two measurements:
// - moving: in the measured window, one picture every 200 ms at most (a
//   1080p sample costs a few ms), luma PSNR p50/p10 (and RGB's);
// - still: once the runner holds the workload still (the client announces
//   the phase), every picture (at most one per 15 ms) is sampled, and the
//   last one once more at the end: the final PSNR in luma and in RGB, and
//   the time from drawing the last frame until both are within 1 dB of
//   their final values for good.
// Luma is BT.601 (0.299 R + 0.587 G + 0.114 B) on a 0-255 scale for every
// viewer: for a YUV picture it is (Y - 16) * 255 / 219, for an RGB one it is
// computed from the pixels. A perfect picture scores kMaxPsnrDb.
//
// Threads: one thread at a time. Owns the expected frame (width x height).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "expected_picture.h"
#include "marker/marker.h"

namespace voxl::bench {

inline constexpr double kMaxPsnrDb = 100;

// A decoded picture as the viewer holds it, valid for one call: planar YUV
// (BT.601 limited range, chroma subsampled by 2 when its planes are
// (width+1)/2 wide, full size for 4:4:4) or packed R, G, B, pad bytes.
struct PictureView {
  int width = 0, height = 0;
  const uint8_t* y = nullptr;
  const uint8_t* u = nullptr;
  const uint8_t* v = nullptr;
  int chroma_width = 0, chroma_height = 0;
  const uint8_t* rgbx = nullptr;  // when not YUV
};

struct PsnrSample {
  int64_t at_us;  // CLOCK_REALTIME, when the picture arrived
  uint32_t counter;
  double luma_db, rgb_db;
};

// The PSNR of `picture` against `expected` (width x height 0x00RRGGBB),
// pixels in [0, skip_w) x [0, skip_h) left out.
PsnrSample measure_psnr(const PictureView& picture, const uint32_t* expected, int skip_w, int skip_h);
// 0x00RRGGBB of a picture's pixel, as a viewer shows it.
uint32_t rgb_at(const PictureView& picture, int x, int y);

class PictureQuality {
 public:
  // `workload`: bench/run's name for it; an unpredictable one measures nothing.
  PictureQuality(std::string workload, int cell) : workload_(std::move(workload)), cell_(cell) {}

  // Builds the expected picture's model for a width x height screen now
  // (the texture's takes a second), not at the first decoded picture.
  void prepare(int width, int height);

  // Every decoded picture of the measured window or the still phase, with
  // the counter its marker read (none: not sampled).
  void on_picture(const PictureView& picture, std::optional<uint32_t> counter, bool in_window);
  // The still phase starts now (the workload is told to stop moving).
  void start_still();
  bool in_still() const { return still_start_us_ != 0; }
  // With a prefix, the still phase's last picture and the expected one are
  // written as PREFIX-decoded.ppm and PREFIX-expected.ppm (to look at).
  void save_still_to(std::string prefix) { save_prefix_ = std::move(prefix); }
  // The end of the still phase: `last` (the picture the viewer shows now,
  // with its counter) is sampled unless it already was.
  void finish_still(const PictureView& last, std::optional<uint32_t> counter);

  // psnr_p50_db, psnr_p10_db, rgb_psnr_p50_db, psnr_samples; with a still
  // phase still_psnr_db, still_rgb_psnr_db, still_settle_ms, still_counter,
  // still_behind (counters the viewer never showed). Empty when nothing was
  // measured.
  nlohmann::json finish(const DrawLog& log) const;

 private:
  bool sample(const PictureView& picture, uint32_t counter, int64_t arrived_us, std::vector<PsnrSample>& into);

  std::string workload_;
  int cell_;
  bool unpredictable_ = false;
  std::unique_ptr<ExpectedPicture> model_;
  std::vector<uint32_t> expected_;
  std::optional<uint32_t> expected_counter_;
  int width_ = 0, height_ = 0;
  int64_t last_sample_us_ = 0;
  int64_t still_start_us_ = 0;
  bool last_sampled_ = false;  // the newest still-phase picture has been sampled
  int64_t last_arrived_us_ = 0;  // when the newest picture arrived
  std::vector<PsnrSample> moving_, still_;
  std::string save_prefix_;
};

}  // namespace voxl::bench
