#include "stream/video/video_loop.h"

#include <algorithm>

#include "base/clock.h"

namespace voxl::stream {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

VideoLoop::VideoLoop(const PipelineSettings& settings, Logger log, VideoControls& controls, CaptureDriver& driver,
                     RungCoder::EncoderFactory make_encoder, RungCoder::Emit emit, Stopped stopped,
                     BudgetChanged budget)
    : settings_(settings),
      log_(std::move(log)),
      controls_(controls),
      driver_(driver),
      emit_(std::move(emit)),
      stopped_(std::move(stopped)),
      budget_changed_(std::move(budget)),
      rung_count_(std::clamp(settings.max_encodes, 1, kMaxRungs)),
      // Paintover: off when its CRF is no better than the normal one.
      paintover_on_(settings.paintover_burst > 0 && settings.paintover_crf < settings.encoder.crf),
      pictures_(settings.convert_threads, settings.full_chroma_range),
      pacer_(settings.max_fps),
      schedule_(paintover_on_ ? settings.paintover_burst : 0,
                std::chrono::milliseconds(std::max(0, settings.paintover_delay_ms))),
      budget_(rung_count_),
      paced_fps_(settings.max_fps) {
  coders_.reserve(size_t(rung_count_));
  for (int i = 0; i < rung_count_; ++i) coders_.emplace_back(i, settings_, make_encoder, log_);
}

void VideoLoop::run() {
  while (controls_.wait_active()) {
    for (auto& c : coders_) c.ladder().rate.set_ceiling(controls_.max_fps());
    read_rungs();
    follow_motion(Clock::now());
    follow_rate();
    const std::optional<bool> paused = controls_.pace(pacer_.earliest(), kMaxPause);
    if (!paused) continue;
    read_rungs();
    drop_unwanted();
    const Clock::time_point ready_at = Clock::now();
    CaptureDriver::Shot shot = driver_.capture(damage_wait(ready_at));
    const Next next = on_status(shot);
    if (next == Next::kEnd) return;
    if (next == Next::kAgain) continue;
    read_rungs();
    const bool change = shot.result.status != capture::CaptureStatus::kNoChange;
    const LadderPlan planned = plan(shot.at);
    bool paintover = false;
    if (!change && !planned.other_work) {
      // While paused, the pause wait above bounds how often this looks.
      if (!planned.any || !schedule_.paintover_now(shot.at, full_chroma_due(), *paused)) continue;
      paintover = true;
    }
    encode::EncodedFrame base = stamp(shot, ready_at);
    bool resized = false;
    if (!take_picture(shot, base, resized)) continue;
    // What the rungs that do not code this capture owe.
    if (change && !resized)
      for (int i = 0; i < rung_count_; ++i)
        if (rungs_.coded[size_t(i)] && !planned.codes[size_t(i)]) coders_[size_t(i)].ladder().owe(rects_);
    if (planned.codes[0] && shot.result.frame) coders_[0].adapt_threads(shot.at, pictures_.size());
    const Coded coded = code_rungs(planned, shot, base, change, paintover);
    if (coded.failed) return;
    after_picture(shot, coded, paintover);
  }
}

void VideoLoop::read_rungs() { rungs_ = controls_.rungs(); }

// The pacer follows rung 0 while it is coded (the lower rungs skip
// captures down to their own rate), the fastest coded rung otherwise.
void VideoLoop::follow_rate() {
  int fps = 0;
  if (rungs_.coded[0]) {
    fps = coders_[0].ladder().rate.fps();
  } else {
    for (int i = 1; i < rung_count_; ++i)
      if (rungs_.coded[size_t(i)]) fps = std::max(fps, coders_[size_t(i)].ladder().rate.fps());
  }
  if (fps <= 0 || fps == paced_fps_) return;
  paced_fps_ = fps;
  log_->debug("video: {} fps (rate factor {:.1f} over the CRF, ceiling {})", paced_fps_,
              coders_[0].ladder().rate.excess(), coders_[0].ladder().rate.ceiling());
  pacer_.set_max_fps(paced_fps_);
}

// The motion choice, or with kAuto the judge's view of the content, tells
// every rung's governor whether to hold the full frame rate.
void VideoLoop::follow_motion(Clock::time_point now) {
  const Motion m = controls_.motion();
  // Sharp, chosen, asks motion frames for a finer quantiser than --crf
  // (never finer than a paintover's), which the governor then trades the
  // frame rate for.
  motion_crf_ = m == Motion::kSharp
                    ? std::max(settings_.paintover_crf, settings_.encoder.crf - kSharpCrfStep)
                    : settings_.encoder.crf;
  const bool smooth = m == Motion::kSmooth || (m == Motion::kAuto && judge_.moving(now));
  if (smooth == smooth_) return;
  smooth_ = smooth;
  for (auto& c : coders_) c.ladder().rate.set_smooth(smooth);
  log_->debug("video: motion {} ({}): {}", motion_name(m), m == Motion::kAuto ? "judged" : "chosen",
              smooth ? "the full frame rate held" : "the frame rate traded for sharpness");
}

// A rung no one takes is not coded: its encoder goes.
void VideoLoop::drop_unwanted() {
  for (int i = 0; i < rung_count_; ++i) {
    RungCoder& c = coders_[size_t(i)];
    if (rungs_.coded[size_t(i)] || !c.ladder().encoder) continue;
    c.drop();
    controls_.set_owes(i, false);
  }
}

// Wait for damage until a paintover is due, or a ready rung's slot for the
// damage it skipped, at most kIdleWait.
std::chrono::milliseconds VideoLoop::damage_wait(Clock::time_point now) {
  auto timeout = schedule_.damage_wait(now, full_chroma_due(), kIdleWait);
  for (int i = 0; i < rung_count_; ++i) {
    const LadderRung& rung = coders_[size_t(i)].ladder();
    if (!rungs_.coded[size_t(i)] || !rungs_.ready[size_t(i)] || !rung.owes()) continue;
    if (!rung.last_coded) {
      timeout = std::chrono::milliseconds(0);
      continue;
    }
    const auto until = std::chrono::ceil<std::chrono::milliseconds>(rung.next_slot(rung.rate.fps()) - now);
    timeout = std::clamp(until, std::chrono::milliseconds(0), timeout);
  }
  return timeout;
}

// When a still screen switches to 4:4:4 (a paintover then), if it may:
// rung 0 only, while it is coded.
std::optional<Clock::time_point> VideoLoop::full_chroma_due() const {
  const bool allowed = settings_.full_chroma && controls_.full_chroma() && rungs_.coded[0];
  const auto due = coders_[0].full_chroma_due(allowed);
  if (!due || !schedule_.have_picture() || !pictures_.last_is_whole()) return std::nullopt;
  return std::max(*due, schedule_.still_from());
}

VideoLoop::Next VideoLoop::on_status(const CaptureDriver::Shot& shot) {
  const capture::CaptureResult& r = shot.result;
  switch (r.status) {
    case capture::CaptureStatus::kOk:
    case capture::CaptureStatus::kNoChange:
      return Next::kCode;
    case capture::CaptureStatus::kReinit: {
      const bool remakeable = driver_.can_rebuild();
      if (!driver_.rebuild(r.error, [this](Clock::duration d) { return controls_.wait_rebuild(d); })) {
        if (!remakeable) stopped_(r.error);  // else stopping: no one to tell
        return Next::kEnd;
      }
      // The new capturer's first frame is its whole area; the viewers'
      // decoders start again from it.
      controls_.ask_all_keys();
      return Next::kAgain;
    }
    case capture::CaptureStatus::kPermanent:
      log_->error("video capture stopped: {}", r.error);
      stopped_(r.error);
      return Next::kEnd;
    case capture::CaptureStatus::kTemporary:
      log_->debug("capture: {}", r.error);
      pacer_.back_off(shot.at);
      return Next::kAgain;
  }
  return Next::kAgain;
}

LadderPlan VideoLoop::plan(Clock::time_point now) const {
  std::array<RungView, kMaxRungs> views{};
  for (int i = 0; i < rung_count_; ++i) {
    const LadderRung& rung = coders_[size_t(i)].ladder();
    RungView& v = views[size_t(i)];
    v.wanted = rungs_.coded[size_t(i)];
    v.ready = rungs_.ready[size_t(i)];
    v.owes = rung.owes();
    v.key = controls_.key_asked(i);
    v.last_coded = rung.last_coded;
    v.next_slot = rung.next_slot(rung.rate.fps());
  }
  return plan_ladder(std::span<const RungView>(views.data(), size_t(rung_count_)), now, kMaxPause,
                     schedule_.have_picture());
}

// What every rung's frames of this capture share.
encode::EncodedFrame VideoLoop::stamp(const CaptureDriver::Shot& shot, Clock::time_point ready_at) const {
  encode::EncodedFrame base;
  const capture::Frame* f = shot.result.frame.get();
  base.captured_at = f ? f->captured_at : shot.at;
  // The wall clock at the grab's end, not now: the stamps count from it.
  base.capture_wall_us = wall_clock_us() - micros_between(base.captured_at, Clock::now());
  base.stamps.ready = std::min(ready_at, base.captured_at);
  base.stamps.grab_start = base.captured_at;
  if (f) {
    base.times.capture_us = f->grab_us;
    base.stamps.grab_start = f->captured_at - std::chrono::microseconds(f->grab_us);
  }
  return base;
}

bool VideoLoop::take_picture(const CaptureDriver::Shot& shot, encode::EncodedFrame& base, bool& resized) {
  const capture::Frame* f = shot.result.frame.get();
  if (!f) {
    rects_.clear();
    base.stamps.converted = Clock::now();
  } else {
    if (encode::encodable_size(f->size()).empty()) return false;
    origin_ = f->origin;
    captured_ = f->size();
    const auto t0 = Clock::now();
    rects_ = f->damage_rects;  // exact, or the block cover when there were many
    resized = pictures_.take(*f, rects_);
    if (resized) {
      // A new size: every rung starts again with a key frame of it, and a
      // rung that could not be coded at the old size may be at this one.
      for (int i = 0; i < rung_count_; ++i) {
        coders_[size_t(i)].restart();
        controls_.set_owes(i, false);
      }
      budget_.uncap();
    }
    schedule_.on_change(shot.at);
    judge_.on_change(shot.at, damage_share(rects_, captured_), pacer_.interval());
    base.stamps.converted = Clock::now();
    base.times.convert_us = micros_between(t0, base.stamps.converted);
  }
  base.origin = origin_;
  base.captured = captured_;
  return true;
}

// Tells the budget's owner when the rungs afforded or the share of work
// (whole percent) moved: at most once a budget window, or at a failed rung.
void VideoLoop::report_budget() {
  const int rungs = budget_.rungs();
  const int work_pct = int(budget_.work_share() * 100 + 0.5);
  if (rungs == reported_rungs_ && work_pct == reported_work_pct_) return;
  reported_rungs_ = rungs;
  reported_work_pct_ = work_pct;
  if (budget_changed_) budget_changed_(rungs, work_pct);
}

VideoLoop::Coded VideoLoop::code_rungs(const LadderPlan& plan, const CaptureDriver::Shot& shot,
                                       const encode::EncodedFrame& base, bool change, bool paintover) {
  Coded coded;
  coded.work_us = base.times.convert_us;
  const capture::Frame* source = shot.result.frame ? shot.result.frame.get()
                                 : pictures_.last_is_whole() ? pictures_.last()
                                                             : nullptr;
  for (int i = 0; i < rung_count_; ++i) {
    if (!plan.codes[size_t(i)]) continue;
    RungJob job;
    job.got = shot.at;
    job.change = change;
    job.rects = rects_;
    job.paintover = paintover;
    // The key frame request is read before the permission: a consumer that
    // cannot take 4:4:4 withdraws it before asking for its first key frame,
    // so that key frame is 4:2:0.
    job.key = controls_.take_key(i);
    job.full_chroma = settings_.full_chroma && controls_.full_chroma();
    job.source = source;
    job.max_kbps = controls_.max_kbps(i);
    job.interval = pacer_.interval();
    job.crf = motion_crf_;
    job.schedule = &schedule_;
    const RungResult r = coders_[size_t(i)].code(job, pictures_, base, frame_id_, emit_);
    if (r.restore_key) controls_.ask_key(i);
    if (r.kind == RungResult::Kind::kFailed) {
      if (i == 0) {
        log_->error("cannot encode {}x{}: {}", pictures_.size().width, pictures_.size().height, r.error);
        stopped_(r.error);
        coded.failed = true;
        return coded;
      }
      drop_rung(i, r.error);
      continue;
    }
    if (r.kind != RungResult::Kind::kCoded) continue;
    ++coded.rungs;
    coded.work_us += r.work_us;
    coded.settled = coded.settled && r.settled;
  }
  return coded;
}

// A lower rung whose encoder cannot be made: the ladder affords the rungs
// above it only (the hub moves its viewers up), rung 0 goes on.
void VideoLoop::drop_rung(int rung, const std::string& why) {
  log_->error("video: cannot encode rung {} ({}x{}): {}; the ladder keeps {} rung{} at this size", rung,
              pictures_.size().width, pictures_.size().height, why, rung, rung == 1 ? "" : "s");
  coders_[size_t(rung)].drop();
  controls_.set_owes(rung, false);
  budget_.cap(rung);
  report_budget();
}

void VideoLoop::after_picture(CaptureDriver::Shot& shot, const Coded& coded, bool paintover) {
  for (int i = 0; i < rung_count_; ++i) controls_.set_owes(i, coders_[size_t(i)].ladder().owes());
  if (settings_.full_chroma && coders_[0].full_chroma_possible()) {
    if (shot.result.frame) pictures_.keep(std::move(shot.result.frame));
  } else {
    pictures_.forget();
  }
  if (paintover && coded.settled) schedule_.end_burst();
  if (coded.rungs == 0) return;
  follow_rate();
  if (rung_count_ > 1) {
    const int before = budget_.rungs();
    budget_.on_picture(coded.rungs, double(coded.work_us), 1e6 / std::max(1, paced_fps_), shot.at);
    if (budget_.rungs() != before)
      log_->info("video: the machine affords {} encode{} now (conversion and encodes took {:.0f}% of the frame "
                 "intervals over the last second)",
                 budget_.rungs(), budget_.rungs() == 1 ? "" : "s", budget_.work_share() * 100);
    report_budget();
  }
  pacer_.on_capture(shot.at);
}

}  // namespace voxl::stream
