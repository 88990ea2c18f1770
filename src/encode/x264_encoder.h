// x264 tuned for interactive streaming: zerolatency (no lookahead, no
// B-frames, sliced threads), constant quality with a VBV ceiling, an
// unbounded GOP with IDRs only on request, Annex B output with SPS/PPS in
// front of every IDR. 4:2:0 pictures are Constrained Baseline, so any
// WebCodecs decoder takes them; 4:4:4 pictures (a still screen's
// full-resolution chroma) are High 4:4:4 Predictive, for decoders that said
// they take it. The VUI says BT.601 and the image's range.
//
// Threads: owned by the video thread; x264 runs its own slice threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "base/logging.h"
#include "encode/i420_image.h"

struct x264_t;

namespace voxl::encode {

struct EncoderSettings {
  std::string preset = "ultrafast";
  int crf = 24;
  int threads = 1;       // sliced threads
  int max_kbps = 30000;  // VBV ceiling
  int fps = 60;
  // The pictures this encoder takes (I420Image::chroma() and range() must match).
  ChromaFormat chroma = ChromaFormat::k420;
  ColourRange range = ColourRange::kLimited;
};

class X264Encoder {
 public:
  // Throws std::runtime_error when x264 refuses the settings.
  X264Encoder(Size size, const EncoderSettings& settings, Logger log);
  ~X264Encoder();
  X264Encoder(const X264Encoder&) = delete;
  X264Encoder& operator=(const X264Encoder&) = delete;

  Size size() const { return size_; }
  ChromaFormat chroma() const { return chroma_; }

  // Encodes one picture; `pts_us` must increase. Appends the access unit to
  // `out` and returns whether it is an IDR. False with `out` untouched when
  // x264 produced nothing (it should not, with zerolatency) or failed, or
  // `image` is not of this encoder's chroma format and range.
  bool encode(const I420Image& image, int64_t pts_us, bool force_key, std::vector<uint8_t>& out,
              bool& is_key);

  // Changes the VBV ceiling without a new IDR.
  void set_max_kbps(int kbps);
  int max_kbps() const { return max_kbps_; }
  // Changes the constant-quality factor for the next frames (paintover).
  void set_crf(int crf);
  int crf() const { return crf_; }

 private:
  void reconfigure(int max_kbps, int crf);

  x264_t* enc_ = nullptr;
  Size size_;
  ChromaFormat chroma_;
  ColourRange range_;
  int fps_;
  int max_kbps_;
  int crf_;
  Logger log_;
};

}  // namespace voxl::encode
