// The video thread: paced, damage-driven capture -> conversion of the
// damaged blocks -> x264 (whole, or one encoder per stripe), sharpened by
// a short paintover burst once the screen is still, in 4:4:4 where every
// consumer decodes it (ChromaPolicy says when). With --max-encodes above 1
// the converted picture feeds an encoding ladder: one encoder per rung the
// hub says is coded (set_rung), each with its own bitrate ceiling, frame
// rate and paintover, coded one after another on this thread, rung 0 first
// (the best picture; only rung 0 is ever 4:4:4). A rung whose consumers are
// congested, or whose frame rate is lower, skips captures and codes what it
// skipped with its next frame. LadderBudget shrinks the ladder when the
// encodes no longer fit in the frame interval; the frames say how many rungs
// the machine affords (EncodedFrame::rung_budget). It runs only
// while someone consumes (set_active): with no viewer nothing is captured or
// encoded, and an idle screen wakes it for nothing.
//
// When the capturer reports kReinit (its display went away, the duplication
// was lost for good), the pipeline drops it and makes a new one through the
// factory, retrying with a growing back-off (kFirstRebuild doubling to
// kLongestRebuild) while someone watches; the first frame after is a key
// frame. Only kPermanent (the captured window is gone) or a fault ends it.
//
// Threads: constructed and destroyed on the loop thread; the control calls
// (set_active, set_paused, set_rung, request_keyframe, set_max_kbps,
// set_max_fps, set_full_chroma) are thread-safe. `on_frame`,
// `on_stopped` and the capturer factory are called on the video thread: post
// to your own loop.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "base/logging.h"
#include "capture/capturer.h"
#include "encode/encoded_frame.h"
#include "encode/video_encoder.h"
#include "encode/x264_encoder.h"
#include "stream/rung_planner.h"

namespace voxl::stream {

struct PipelineSettings {
  encode::EncoderSettings encoder;
  int max_fps = 60;
  // The frame rate may drop to this when the link cannot carry the motion
  // at an acceptable quantiser (FrameRateGovernor); max_fps locks it.
  int min_fps = 60;
  int convert_threads = 4;
  // --adaptive-threads: x264 starts on one slice thread and gets
  // encoder.threads (or the automatic count) only under sustained heavy
  // motion (EncoderThreadRule).
  bool adaptive_threads = false;
  // --stripes: the picture coded as this many horizontal bands, each its own
  // stream on its own thread (encode::StripeSet); 1 codes it whole. A
  // picture too short for that many gets fewer (stripe_bands).
  int stripes = 1;
  // --max-encodes: the rungs of the encoding ladder at most (1..kMaxRungs).
  int max_encodes = 1;
  // After a change, capture once no more damage has come for this long (at
  // most a quarter frame interval after the first, or coalesce_us if
  // longer), so a drawing made of many requests becomes one frame; 0
  // captures at the first report.
  int coalesce_us = 500;
  // Once the screen has been still for paintover_delay_ms, the last picture
  // is sent again paintover_burst times at paintover_crf: x264 codes only
  // the difference, sharpening what motion left blurred. Skipped while no
  // viewer can take a frame (the link is saturated).
  int paintover_crf = 16;
  int paintover_burst = 3;
  int paintover_delay_ms = 150;
  // Whether a still screen may be painted over in 4:4:4 (full-resolution
  // chroma) while set_full_chroma(true) says every consumer takes it, and
  // in which range its YUV is coded.
  bool full_chroma = true;
  encode::ColourRange full_chroma_range = encode::ColourRange::kLimited;
};

class VideoPipeline {
 public:
  // The frame is the callee's to finish (StageStamps::published) before it
  // is shared read-only.
  using FrameCallback = std::function<void(std::shared_ptr<encode::EncodedFrame>)>;
  using StopCallback = std::function<void(const std::string& why)>;
  // Makes a capturer; throws std::runtime_error when the desktop cannot be
  // opened (yet).
  using CapturerFactory = std::function<std::unique_ptr<capture::Capturer>()>;

  // `capturer` is the first one (made by the caller, so start-up failures
  // are the caller's); `factory` rebuilds it after a kReinit.
  VideoPipeline(std::unique_ptr<capture::Capturer> capturer, CapturerFactory factory, PipelineSettings settings,
                Logger log, FrameCallback on_frame, StopCallback on_stopped);
  ~VideoPipeline();  // stops and joins the thread
  VideoPipeline(const VideoPipeline&) = delete;
  VideoPipeline& operator=(const VideoPipeline&) = delete;

  void set_active(bool active);
  // While paused no frame is made (damage keeps accumulating), except one
  // every kMaxPause so a consumer that stopped acknowledging cannot stall
  // the stream for good.
  void set_paused(bool paused);
  // Whether rung `rung` is coded (someone takes it) and whether any of its
  // consumers can take a frame now; a rung not ready skips captures (one
  // every kMaxPause at least). Rung 0 starts coded and ready, the others not
  // coded.
  void set_rung(int rung, bool coded, bool ready);
  void request_keyframe(int rung = 0);
  // Every consumer decodes High 4:4:4 Predictive (or no longer: the next
  // frame is then a 4:2:0 key frame when the stream was 4:4:4). Set it
  // before asking for the key frame a new consumer needs.
  void set_full_chroma(bool allowed);
  // Why the capturer is gone while a new one is being made, or nullopt
  // while there is one. Any thread.
  std::optional<std::string> capture_lost() const;

  static constexpr std::chrono::milliseconds kMaxPause{500};
  // Longest wait for damage before the loop looks at its controls again.
  static constexpr std::chrono::milliseconds kIdleWait{500};
  static constexpr std::chrono::milliseconds kFirstRebuild{250};
  static constexpr std::chrono::milliseconds kLongestRebuild{5000};
  void set_max_kbps(int rung, int kbps);
  // The frame rate ceiling (the highest any consumer allows; at most
  // settings' max_fps): the pacer and the encoder follow it from the next
  // frame on, under what FrameRateGovernor allows.
  void set_max_fps(int fps);
  // Paintover frames in a row at most after a switch to 4:4:4 (a second at
  // 60 fps): its IDR takes the bits of the stillness before it (a fresh
  // encoder's banked VBV), every frame after it one interval of the
  // ceiling, so on a slow link a detailed screen takes several frames to
  // converge; the burst ends as soon as one comes out small (encode::kSettledBytes)
  // without the VBV starving it, and waits whenever no viewer can take a frame.
  static constexpr int kFullChromaBurst = 60;

 private:
  void run();
  void produce();  // run()'s body, which may throw
  bool wait_until_active();
  // After kReinit: a new capturer, retried until one is made (true) or the
  // pipeline stops (false).
  bool rebuild_capturer(const std::string& why);
  void wake_capturer();  // under mu_: the capturer may be being replaced

  std::unique_ptr<capture::Capturer> capturer_;  // replaced on the video thread, under mu_
  CapturerFactory factory_;
  PipelineSettings settings_;
  Logger log_;
  FrameCallback on_frame_;
  StopCallback on_stopped_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool active_ = false;
  bool paused_ = false;
  bool stop_ = false;
  std::string lost_;  // under mu_: why capturer_ is null while it is remade
  std::array<bool, kMaxRungs> rung_coded_{true};  // under mu_
  std::array<bool, kMaxRungs> rung_ready_{true};  // under mu_
  std::array<std::atomic<bool>, kMaxRungs> keyframe_{};
  std::array<std::atomic<int>, kMaxRungs> max_kbps_{};
  // The video thread's: the rung skipped damage it has yet to code.
  std::array<std::atomic<bool>, kMaxRungs> owes_{};
  std::atomic<int> max_fps_ceiling_;
  std::atomic<bool> full_chroma_{false};
  std::thread thread_;
};

}  // namespace voxl::stream
