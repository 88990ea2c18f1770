// What the video pipeline asks of an encoder of one picture stream: x264
// (X264Encoder) is one; a set of stripes, each its own encoder, is meant
// to be another. The pipeline holds encoders through this interface only.
//
// Threads: owned and used by the video thread.
#pragma once

#include <cstdint>
#include <vector>

#include "base/geometry.h"
#include "encode/i420_image.h"

namespace voxl::encode {

class VideoEncoder {
 public:
  virtual ~VideoEncoder() = default;

  virtual Size size() const = 0;
  virtual int threads() const = 0;  // threads the encoder codes with
  virtual ChromaFormat chroma() const = 0;

  // Encodes one picture; `pts_us` must increase. Appends the access unit
  // to `out` and says whether it is a key frame; false with `out` untouched
  // when nothing was produced.
  virtual bool encode(const I420Image& image, int64_t pts_us, bool force_key, std::vector<uint8_t>& out,
                      bool& is_key) = 0;

  // How the next frames are coded: the bitrate ceiling, the quality factor,
  // the rate frames come at, and how a frame after a gap budgets its bits.
  virtual void set_max_kbps(int kbps) = 0;
  virtual void set_crf(int crf) = 0;
  virtual void set_frame_rate(int fps) = 0;
  enum class GapBudget {
    kNone,   // one nominal interval's bits (the default)
    kBank,   // refill with the bits of the time since the previous frame
    kSpend,  // keep what the previous frame banked, so this one can take it
  };
  virtual void set_gap_budget(GapBudget budget) = 0;

  // The last frame's effective rate factor, and whether the bitrate cap
  // starved it (a coarse picture in few bytes).
  virtual double rate_factor() const = 0;
  virtual bool last_frame_starved() const = 0;
};

}  // namespace voxl::encode
