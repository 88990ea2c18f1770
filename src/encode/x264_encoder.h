// x264 tuned for interactive streaming: zerolatency (no lookahead, no
// B-frames, sliced threads), constant quality with a VBV ceiling, an
// unbounded GOP with IDRs only on request, Annex B output with SPS/PPS in
// front of every IDR. 4:2:0 pictures are Constrained Baseline, so any
// WebCodecs decoder takes them; 4:4:4 pictures (a still screen's
// full-resolution chroma) are High 4:4:4 Predictive, for decoders that said
// they take it. The VUI says BT.601 and the image's range.
//
// The VBV holds one frame interval of the ceiling, so no frame takes much
// longer than an interval to cross a link that carries it. x264 counts that
// buffer in frames at the nominal rate and refills it after each frame, but
// frames come only when the screen changes: a paintover after a still spell
// banks the bits of the stillness with one frame and spends them with the
// next (set_gap_budget), instead of sharpening with an interval's worth.
//
// Threads: owned by the video thread; x264 runs its own slice threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "base/logging.h"
#include "encode/i420_image.h"
#include "encode/video_encoder.h"

struct x264_t;

namespace voxl::encode {

struct EncoderSettings {
  std::string preset = "ultrafast";
  int crf = 24;
  int threads = 0;       // sliced threads; 0: auto_encoder_threads()
  int max_kbps = 30000;  // VBV ceiling
  int fps = 60;
  // The pictures this encoder takes (I420Image::chroma() and range() must match).
  ChromaFormat chroma = ChromaFormat::k420;
  ColourRange range = ColourRange::kLimited;
  // Nominal frame intervals of the ceiling the VBV holds for the first
  // frame (at most kMaxFrameBudgetUs of them): an encoder made for a still
  // screen's key frame starts with the bits of the stillness banked, where
  // one interval would starve a whole new picture.
  int first_frame_intervals = 1;
};

// Sliced threads for `size` at `fps` on `cpus` CPUs: one per 1920x1080 at
// 30 frames/s of pixel rate (what one x264 ultrafast thread encodes within
// the frame interval with room to spare on heavy content: 1080p at about 47
// on this project's 2-core build machine), at most min(cpus, 4). Each slice
// costs a little compression and a thread hand-off, so streams the interval
// does not demand it for keep one: 1080p60 gets two, 1080p30 and 720p60 one.
int auto_encoder_threads(Size size, int fps, unsigned cpus);

class X264Encoder final : public VideoEncoder {
 public:
  // Throws std::runtime_error when x264 refuses the settings.
  X264Encoder(Size size, const EncoderSettings& settings, Logger log);
  ~X264Encoder() override;
  X264Encoder(const X264Encoder&) = delete;
  X264Encoder& operator=(const X264Encoder&) = delete;

  // The longest time whose bits one frame may bank.
  static constexpr int64_t kMaxFrameBudgetUs = 200'000;
  // Rate-factor steps over the CRF beyond which a frame counts as starved.
  static constexpr double kStarvedSteps = 4;

  Size size() const override { return size_; }
  int threads() const override { return threads_; }  // slice threads x264 runs
  ChromaFormat chroma() const override { return chroma_; }

  // Encodes one picture; `pts_us` must increase (the time it was taken, in
  // microseconds). Appends the access unit to `out` and returns whether it is
  // an IDR. False with `out` untouched when x264 produced nothing (it should
  // not, with zerolatency) or failed, or `picture` is not of this encoder's
  // size, chroma format and range.
  bool encode(const PictureView& picture, int64_t pts_us, bool force_key, std::vector<uint8_t>& out,
              bool& is_key);
  bool encode(const I420Image& image, int64_t pts_us, bool force_key, std::vector<uint8_t>& out, bool& is_key) {
    return encode(image.view(), pts_us, force_key, out, is_key);
  }
  // VideoEncoder: the whole picture, damage or not, as one part.
  bool encode(const I420Image& image, int64_t pts_us, bool force_key, std::span<const Rect> damage,
              std::vector<CodedPart>& out) override;

  // Changes the VBV ceiling without a new IDR.
  void set_max_kbps(int kbps) override;
  int max_kbps() const { return max_kbps_; }
  // Changes the constant-quality factor for the next frames (paintover).
  void set_crf(int crf) override;
  int crf() const { return crf_; }
  // How the next frames size the VBV. x264 refills it after each frame, so
  // a frame that comes after a gap cannot take the gap's bits itself; it can
  // bank them for the frame after it (kBank: whole nominal intervals of the
  // gap, at most kMaxFrameBudgetUs).
  void set_gap_budget(GapBudget budget) override { gap_budget_ = budget; }
  // Nominal intervals the VBV is sized for now (1 unless banked).
  int budget_intervals() const { return budget_frames_; }
  // The rate frames come at, at most the nominal one: each frame's share of
  // the cap (VBV refill and size) is at least 1/fps of a second's.
  void set_frame_rate(int fps) override;
  // The last frame's effective rate factor (x264's average; the CRF while
  // the cap does not bind, more when it makes the quantiser coarser).
  double rate_factor() const override { return rate_factor_; }
  // Whether the VBV raised the quantiser of the last frame well above the
  // CRF's (a starved frame comes out small although its picture is coarse).
  bool last_frame_starved() const override { return rate_factor_ > crf_ + kStarvedSteps; }

 private:
  void reconfigure(int max_kbps, int crf, int budget_frames);
  int max_budget_frames() const;

  x264_t* enc_ = nullptr;
  Size size_;
  int threads_ = 1;
  ChromaFormat chroma_;
  ColourRange range_;
  int fps_;
  int max_kbps_;
  int crf_;
  GapBudget gap_budget_ = GapBudget::kNone;
  int budget_frames_ = 1;  // nominal frame intervals the VBV refill and size are set to
  int coded_fps_;          // set_frame_rate's, at most fps_
  double rate_factor_ = 0;
  int64_t last_pts_us_ = 0;
  bool have_pts_ = false;
  Logger log_;
};

}  // namespace voxl::encode
