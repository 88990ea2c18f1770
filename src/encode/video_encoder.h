// What the video pipeline asks of an encoder: x264 on the whole picture
// (X264Encoder) is one; a set of horizontal stripes, each its own x264 on
// its own thread (StripeSet), is the other. The pipeline holds encoders
// through this interface only, and every call codes into parts: one part
// per stream the encoder keeps (one for X264Encoder, one per changed stripe
// for a StripeSet), each an access unit of its own stream.
//
// Threads: owned and used by one thread (the video thread); an
// implementation may fan the work out to threads of its own inside encode().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/geometry.h"
#include "encode/i420_image.h"

namespace voxl::encode {

// One access unit of one of the encoder's streams.
struct CodedPart {
  int stripe = 0;  // which stream: 0 for a single-stream encoder
  Rect band;       // the rows it shows, in picture coordinates (the whole picture for one stream)
  std::vector<uint8_t> data;  // H.264 Annex B, SPS and PPS in front of a key frame
  bool key = false;
  uint32_t encode_us = 0;  // this part's own encode time
  double rate_factor = 0;  // x264's effective rate factor for it
  bool starved = false;    // the bitrate cap made it coarse in few bytes
};

// A paintover frame this small found nothing left to sharpen in its stream.
constexpr size_t kSettledBytes = 1024;

class VideoEncoder {
 public:
  virtual ~VideoEncoder() = default;

  virtual Size size() const = 0;
  virtual ChromaFormat chroma() const = 0;
  // Threads the encoder codes with now.
  virtual int threads() const = 0;
  // Codes with `threads` from the next frame without a key frame, if this
  // encoder can (true); false: only a new encoder can (x264's slice count
  // is fixed once it is open).
  virtual bool set_threads(int threads) {
    (void)threads;
    return false;
  }
  // The streams the picture is coded as (the stripes); each part names one.
  virtual int streams() const { return 1; }

  // Codes `image` (of this encoder's size and format); `pts_us` must
  // increase. `damage`: what changed since the last call, in picture
  // coordinates. A call with no damage re-codes what is not yet sharp at
  // the current CRF (a paintover). With `force_key` every stream codes a
  // key frame. Appends one part per stream coded to `out` (cleared first);
  // false when nothing was coded.
  virtual bool encode(const I420Image& image, int64_t pts_us, bool force_key, std::span<const Rect> damage,
                      std::vector<CodedPart>& out) = 0;

  // How the next frames are coded: the bitrate ceiling (all streams
  // together), the quality factor, the rate frames come at, and how a frame
  // after a gap budgets its bits.
  virtual void set_max_kbps(int kbps) = 0;
  virtual void set_crf(int crf) = 0;
  virtual void set_frame_rate(int fps) = 0;
  enum class GapBudget {
    kNone,   // one nominal interval's bits (the default)
    kBank,   // refill with the bits of the time since the previous frame
    kSpend,  // keep what the previous frame banked, so this one can take it
  };
  virtual void set_gap_budget(GapBudget budget) = 0;

  // The last call's effective rate factor (over the parts coded, by
  // area), and whether the bitrate cap starved any part of it.
  virtual double rate_factor() const = 0;
  virtual bool last_frame_starved() const = 0;
};

}  // namespace voxl::encode
