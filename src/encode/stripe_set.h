// --stripes N: the picture coded as N horizontal bands (stripe_bands), each
// by its own X264Encoder (one slice thread each) on its own thread, so the
// bands of a frame encode at once on N cores and a change inside one band
// codes that band only. Each band is an independent H.264 stream: its own
// SPS and key frames, decoded by its own decoder on the viewer's side.
//
// - A frame codes the bands its damage touches; a key frame (forced, or the
//   first) codes every band, so every stream restarts together.
// - A call without damage (a paintover) codes the bands not yet sharp at
//   the current CRF: those changed since they were last coded at it, and
//   those whose last frame at it was still large or starved.
// - The bitrate ceiling is shared by the bands coded in each frame, in
//   proportion to what each has been taking (stripe_kbps).
// - set_threads(n) (--adaptive-threads): how many bands code at once, from
//   1 (the calling thread codes them in turn) to N, with no key frame.
//
// Threads: owned and called by one thread (the video thread). It runs N - 1
// worker threads of its own, idle between frames (blocked, no polling);
// encode() returns once every band of the frame is coded. The destructor
// stops and joins them.
#pragma once

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/logging.h"
#include "encode/video_encoder.h"
#include "encode/x264_encoder.h"

namespace voxl::encode {

class StripeSet final : public VideoEncoder {
 public:
  // Each band's x264 runs one slice thread; `settings.threads` is how many
  // bands code at once (0: all of them).
  // Throws std::runtime_error when x264 refuses a band (and
  // std::invalid_argument for an empty or odd size).
  StripeSet(Size size, int stripes, const EncoderSettings& settings, Logger log);
  ~StripeSet() override;
  StripeSet(const StripeSet&) = delete;
  StripeSet& operator=(const StripeSet&) = delete;

  Size size() const override { return size_; }
  ChromaFormat chroma() const override { return chroma_; }
  int threads() const override { return parallel_; }
  bool set_threads(int threads) override;
  int streams() const override { return int(bands_.size()); }
  const std::vector<Rect>& bands() const { return bands_; }

  bool encode(const I420Image& image, int64_t pts_us, bool force_key, std::span<const Rect> damage,
              std::vector<CodedPart>& out) override;

  void set_max_kbps(int kbps) override { max_kbps_ = kbps; }
  void set_crf(int crf) override;
  void set_frame_rate(int fps) override;
  void set_gap_budget(GapBudget budget) override;
  double rate_factor() const override { return rate_factor_; }
  bool last_frame_starved() const override { return starved_; }

  // Smoothing of each band's demand (bytes per coded frame): the newest
  // frame's weight.
  static constexpr double kDemandWeight = 0.3;

 private:
  struct Band {
    std::unique_ptr<X264Encoder> encoder;
    double demand = 0;  // bytes per coded frame, smoothed
    int sharp_crf = 0;  // the CRF its last frame was coded at (0: never coded)
    bool settled = false;  // its last frame at sharp_crf found nothing left to sharpen
    CodedPart part;        // the frame's output, written by whichever thread codes it
    bool coded = false;
  };
  void code(size_t band);  // one job; any of the participating threads
  void work(int worker);   // a worker thread's body
  // Publishes the frame's jobs, codes the calling thread's share, then
  // waits for the rest; rethrows a job's exception.
  void run_jobs(std::vector<size_t> jobs, const I420Image& image, int64_t pts_us, bool force_key);

  Size size_;
  ChromaFormat chroma_;
  std::vector<Rect> bands_;
  std::vector<Band> state_;
  int max_kbps_;
  int crf_;
  Logger log_;

  double rate_factor_ = 0;
  bool starved_ = false;

  // The frame being coded: set by run_jobs() under mu_, read by the jobs.
  std::mutex mu_;
  std::condition_variable wake_;  // workers: jobs are ready, or stop
  std::condition_variable done_;  // encode(): the last job finished
  const I420Image* image_ = nullptr;
  int64_t pts_us_ = 0;
  bool force_key_ = false;
  std::vector<size_t> jobs_;
  size_t next_job_ = 0;
  size_t unfinished_ = 0;
  int parallel_;  // threads coding at once: the caller and parallel_ - 1 workers
  bool stop_ = false;
  std::exception_ptr failure_;
  std::vector<std::thread> workers_;
};

}  // namespace voxl::encode
