// The video thread's loop, as stages: pace -> capture (CaptureDriver) ->
// plan which rungs code (plan_ladder) -> bring the picture up to date
// (PictureStore) -> code each planned rung (RungCoder) -> let the ladder's
// budget and the pacer learn from it. run() reads as that sequence; each
// step is a function of its own below.
//
// Threads: constructed, run and destroyed on the video thread; the
// controls and the capture driver are shared with the threads that steer
// the video (both are thread-safe). `emit`, `stopped` and `budget` are
// called on the video thread.
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/logging.h"
#include "encode/encoded_frame.h"
#include "stream/video/capture_driver.h"
#include "stream/video/frame_pacer.h"
#include "stream/video/frame_schedule.h"
#include "stream/video/ladder_budget.h"
#include "stream/video/ladder_plan.h"
#include "stream/video/motion_judge.h"
#include "stream/video/picture_store.h"
#include "stream/video/rung_coder.h"
#include "stream/video/video_controls.h"
#include "stream/video/video_settings.h"

namespace voxl::stream {

class VideoLoop {
 public:
  using Clock = std::chrono::steady_clock;
  using Stopped = std::function<void(const std::string& why)>;
  // The ladder's budget changed: the rungs the machine affords now, and
  // the share of the frame intervals the video thread worked (%).
  using BudgetChanged = std::function<void(int rungs, int work_pct)>;

  static constexpr std::chrono::milliseconds kMaxPause{500};
  static constexpr std::chrono::milliseconds kIdleWait{500};

  VideoLoop(const PipelineSettings& settings, Logger log, VideoControls& controls, CaptureDriver& driver,
            RungCoder::EncoderFactory make_encoder, RungCoder::Emit emit, Stopped stopped, BudgetChanged budget);

  // Until the controls say stop, or the capture or rung 0 fails for good
  // (then `stopped` has been told why). Throws on faults.
  void run();

 private:
  enum class Next { kCode, kAgain, kEnd };
  struct Coded {
    int rungs = 0;          // rungs that coded this capture
    uint32_t work_us = 0;   // conversion and encodes
    bool settled = true;    // every paintover found nothing left
    bool failed = false;    // rung 0 could not be coded: the video ends
  };

  void read_rungs();
  void follow_rate();
  void follow_motion(Clock::time_point now);
  void drop_unwanted();
  std::chrono::milliseconds damage_wait(Clock::time_point now);
  std::optional<Clock::time_point> full_chroma_due() const;
  Next on_status(const CaptureDriver::Shot& shot);
  LadderPlan plan(Clock::time_point now) const;
  encode::EncodedFrame stamp(const CaptureDriver::Shot& shot, Clock::time_point ready_at) const;
  // Converts the capture's damage; false when its size cannot be coded.
  bool take_picture(const CaptureDriver::Shot& shot, encode::EncodedFrame& base, bool& resized);
  Coded code_rungs(const LadderPlan& plan, const CaptureDriver::Shot& shot, const encode::EncodedFrame& base,
                   bool change, bool paintover);
  void drop_rung(int rung, const std::string& why);
  void after_picture(CaptureDriver::Shot& shot, const Coded& coded, bool paintover);
  void report_budget();

  const PipelineSettings& settings_;
  Logger log_;
  VideoControls& controls_;
  CaptureDriver& driver_;
  RungCoder::Emit emit_;
  Stopped stopped_;
  BudgetChanged budget_changed_;

  const int rung_count_;
  const bool paintover_on_;
  PictureStore pictures_;
  FramePacer pacer_;
  FrameSchedule schedule_;
  MotionJudge judge_;
  bool smooth_ = false;  // what the rungs' governors were last told
  int motion_crf_ = 0;   // motion frames' CRF (0 until the first follow_motion)
  // How much finer sharp's motion frames are: 6 steps, twice the bits.
  static constexpr int kSharpCrfStep = 6;
  LadderBudget budget_;
  std::vector<RungCoder> coders_;
  VideoControls::Rungs rungs_;  // the controls, as last read
  std::vector<Rect> rects_;     // this capture's damage
  int paced_fps_;
  int reported_rungs_ = 0;
  int reported_work_pct_ = -1;
  uint32_t frame_id_ = 0;  // over every rung, so a consumer moving between rungs sees them rise
  // Where the picture lies on the desktop, from the newest capture; frames
  // made without one (paintover) show the same area.
  Point origin_;
  Size captured_;
};

}  // namespace voxl::stream
