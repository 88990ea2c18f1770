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
// encodes no longer fit in the frame interval, and `on_budget` says how many
// rungs the machine affords whenever that (or the share of work) moves. It
// runs only
// while someone consumes (set_active): with no viewer nothing is captured or
// encoded, and an idle screen wakes it for nothing.
//
// When the capturer reports kReinit (its display went away, the duplication
// was lost for good), the pipeline drops it and makes a new one through the
// factory, retrying with a growing back-off (CaptureDriver) while someone
// watches; the first frame after is a key frame. A lower rung whose encoder
// cannot be made is dropped (the ladder affords fewer rungs); only
// kPermanent (the captured window is gone), rung 0 failing or a fault ends
// it.
//
// The thread's work is a sequence of stages (stream/video/video_loop.h): this
// class owns the thread, its controls and the capture driver.
//
// Threads: constructed and destroyed on the loop thread; the control calls
// (set_active, set_paused, set_rung, request_keyframe, set_max_kbps,
// set_max_fps, set_motion, set_full_chroma) are thread-safe. `on_frame`,
// `on_stopped` and the capturer factory are called on the video thread: post
// to your own loop.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "base/logging.h"
#include "capture/capturer.h"
#include "encode/encoded_frame.h"
#include "encode/video_encoder.h"
#include "encode/x264_encoder.h"
#include "stream/video/capture_driver.h"
#include "stream/video/rung_planner.h"
#include "stream/video/video_controls.h"
#include "stream/video/video_settings.h"

namespace voxl::stream {

class VideoPipeline {
 public:
  // The frame is the callee's to finish (StageStamps::published) before it
  // is shared read-only.
  using FrameCallback = std::function<void(std::shared_ptr<encode::EncodedFrame>)>;
  using StopCallback = std::function<void(const std::string& why)>;
  // Makes a capturer; throws std::runtime_error when the desktop cannot be
  // opened (yet).
  using CapturerFactory = std::function<std::unique_ptr<capture::Capturer>()>;
  // Makes an encoder for a picture of `size`; throws std::runtime_error when
  // it cannot. Empty: x264, or a stripe set under --stripes.
  using EncoderFactory =
      std::function<std::unique_ptr<encode::VideoEncoder>(Size size, const encode::EncoderSettings& settings)>;
  // The ladder's budget changed: the rungs the machine affords now and the
  // share of the frame intervals the video thread worked (%).
  using BudgetCallback = std::function<void(int rungs, int work_pct)>;

  // `capturer` is the first one (made by the caller, so start-up failures
  // are the caller's); `factory` rebuilds it after a kReinit.
  VideoPipeline(std::unique_ptr<capture::Capturer> capturer, CapturerFactory factory, PipelineSettings settings,
                Logger log, FrameCallback on_frame, StopCallback on_stopped, EncoderFactory make_encoder = {},
                BudgetCallback on_budget = {});
  ~VideoPipeline();  // stops and joins the thread
  VideoPipeline(const VideoPipeline&) = delete;
  VideoPipeline& operator=(const VideoPipeline&) = delete;

  void set_active(bool active);
  // While paused no frame is made (damage keeps accumulating), except one
  // every VideoLoop::kMaxPause so a consumer that stopped acknowledging
  // cannot stall the stream for good.
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
  void set_max_kbps(int rung, int kbps);
  // The frame rate ceiling (the highest any consumer allows; at most
  // settings' max_fps): the pacer and the encoder follow it from the next
  // frame on, under what FrameRateGovernor allows.
  void set_max_fps(int fps);
  // How the frame rate is traded against sharpness (motion_choice.h).
  void set_motion(Motion m);

 private:
  void run();
  static EncoderFactory default_encoders(const PipelineSettings& settings, const Logger& log);

  PipelineSettings settings_;
  Logger log_;
  EncoderFactory make_encoder_;
  FrameCallback on_frame_;
  StopCallback on_stopped_;
  BudgetCallback on_budget_;
  VideoControls controls_;
  CaptureDriver driver_;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace voxl::stream
