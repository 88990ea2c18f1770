#include "stream/video_pipeline.h"

#include <algorithm>
#include <optional>

#include "capture/frame_pool.h"
#include "encode/color_converter.h"
#include "encode/h264_bitstream.h"
#include "encode/i420_image.h"
#include "encode/stripe_layout.h"
#include "encode/stripe_set.h"
#include "stream/chroma_policy.h"
#include "stream/encoder_thread_rule.h"
#include "stream/frame_pacer.h"
#include "stream/frame_rate_governor.h"
#include "stream/frame_schedule.h"
#include "stream/ladder_budget.h"
#include "stream/ladder_rung.h"

namespace voxl::stream {

namespace {

using Clock = std::chrono::steady_clock;

uint32_t micros_between(Clock::time_point a, Clock::time_point b) {
  return uint32_t(std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::microseconds>(b - a).count()));
}

// How much of the picture `rects` cover, 0..1 (overlaps counted twice).
double damaged_fraction(const std::vector<Rect>& rects, Size size) {
  double area = 0;
  for (const Rect& r : rects) area += double(r.width) * double(r.height);
  const double whole = double(size.width) * double(size.height);
  return whole > 0 ? std::min(1.0, area / whole) : 1.0;
}

uint64_t wall_clock_us() {
  return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

}  // namespace

VideoPipeline::VideoPipeline(std::unique_ptr<capture::Capturer> capturer, CapturerFactory factory,
                             PipelineSettings settings, Logger log, FrameCallback on_frame, StopCallback on_stopped)
    : capturer_(std::move(capturer)),
      factory_(std::move(factory)),
      settings_(std::move(settings)),
      log_(std::move(log)),
      on_frame_(std::move(on_frame)),
      on_stopped_(std::move(on_stopped)),
      max_fps_ceiling_(settings_.max_fps) {
  for (auto& k : max_kbps_) k = settings_.encoder.max_kbps;
  thread_ = std::thread([this] { run(); });
}

VideoPipeline::~VideoPipeline() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  wake_capturer();
  thread_.join();
}

void VideoPipeline::wake_capturer() {
  std::lock_guard lock(mu_);
  if (capturer_) capturer_->wake();
}

void VideoPipeline::set_active(bool active) {
  {
    std::lock_guard lock(mu_);
    if (active_ == active) return;
    active_ = active;
  }
  cv_.notify_all();
  if (!active) wake_capturer();
}

void VideoPipeline::set_paused(bool paused) {
  {
    std::lock_guard lock(mu_);
    paused_ = paused;
  }
  cv_.notify_all();
}

void VideoPipeline::set_rung(int rung, bool coded, bool ready) {
  if (rung < 0 || rung >= kMaxRungs) return;
  bool woke = false;
  {
    std::lock_guard lock(mu_);
    woke = ready && !rung_ready_[size_t(rung)];
    rung_coded_[size_t(rung)] = coded;
    rung_ready_[size_t(rung)] = ready;
  }
  cv_.notify_all();
  // A rung that skipped damage while congested codes it now, still screen or not.
  if (woke && owes_[size_t(rung)]) wake_capturer();
}

void VideoPipeline::request_keyframe(int rung) {
  if (rung < 0 || rung >= kMaxRungs) return;
  keyframe_[size_t(rung)] = true;
  wake_capturer();
}

void VideoPipeline::set_max_kbps(int rung, int kbps) {
  if (rung >= 0 && rung < kMaxRungs) max_kbps_[size_t(rung)] = kbps;
}

void VideoPipeline::set_max_fps(int fps) { max_fps_ceiling_ = fps; }

void VideoPipeline::set_full_chroma(bool allowed) {
  full_chroma_ = allowed;
  wake_capturer();  // a still screen may now be painted over in 4:4:4
}

bool VideoPipeline::rebuild_capturer(const std::string& why) {
  {
    std::lock_guard lock(mu_);
    capturer_.reset();
    lost_ = why;
  }
  if (!factory_) {
    log_->error("video capture stopped: {}", why);
    on_stopped_(why);
    return false;
  }
  log_->warn("video capture lost ({}): making a new capturer", why);
  auto delay = kFirstRebuild;
  std::string last_error;
  for (;;) {
    {
      std::unique_lock lock(mu_);
      // Waits out the back-off, and while no one watches.
      cv_.wait_for(lock, delay, [this] { return stop_; });
      cv_.wait(lock, [this] { return stop_ || active_; });
      if (stop_) return false;
    }
    try {
      if (auto fresh = factory_()) {
        const std::string what = fresh->describe();
        {
          std::lock_guard lock(mu_);
          capturer_ = std::move(fresh);
        }
        // After the capturer is in place: /readyz says ready from this line on.
        log_->info("video capture is back: {}", what);
        return true;
      }
    } catch (const std::exception& e) {
      // Said once per distinct reason: the desktop may stay away a while.
      if (last_error != e.what()) log_->warn("video capture: still cannot capture: {}", e.what());
      last_error = e.what();
    }
    delay = std::min(delay * 2, kLongestRebuild);
  }
}

std::optional<std::string> VideoPipeline::capture_lost() const {
  std::lock_guard lock(mu_);
  if (capturer_) return std::nullopt;
  return lost_.empty() ? std::string("no capturer") : lost_;
}

bool VideoPipeline::wait_until_active() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return active_ || stop_; });
  return !stop_;
}

// Nothing may escape the thread: a fault stops the video the way a lost
// capture does, through on_stopped_, and the daemon ends cleanly.
void VideoPipeline::run() {
  std::string why;
  try {
    produce();
    return;
  } catch (const std::exception& e) {
    why = e.what();
  } catch (...) {
    why = "an unknown exception";
  }
  try {
    log_->error("video pipeline failed: {}", why);
    on_stopped_(why);
  } catch (...) {
  }
}

void VideoPipeline::produce() {
  capture::FramePool pool(2);
  encode::ColorConverter converter(settings_.convert_threads);
  // The 4:2:0 picture is kept current all the time; the 4:4:4 one only
  // while rung 0 is 4:4:4, and made whole from `last_frame` when it
  // switches (so motion costs no 4:4:4 conversion).
  encode::I420Image image, image444;
  std::unique_ptr<encode::VideoEncoder> encoder444;  // rung 0's, while 4:4:4
  // The newest captured picture, whole (the pool brings every frame up to
  // date). Held while 4:4:4 is on, so a switch can convert all of it; the
  // capturer still has the pool's other buffer.
  capture::FrameRef last_frame;
  ChromaPolicy chroma;
  encode::ChromaFormat coded = encode::ChromaFormat::k420;  // rung 0's last frame
  std::optional<Clock::time_point> last_sent;  // when rung 0's last frame was captured
  FramePacer pacer(settings_.max_fps);
  const int rung_count = std::clamp(settings_.max_encodes, 1, kMaxRungs);
  std::vector<LadderRung> rungs;
  for (int i = 0; i < rung_count; ++i) rungs.emplace_back(settings_.min_fps, settings_.max_fps);
  LadderBudget budget(rung_count);
  // --adaptive-threads (rung 0): made with its first encoder, when its size
  // (and so its automatic thread count) is known.
  std::optional<EncoderThreadRule> thread_rule;
  // What every encoder of a rung made now starts with: the rung's ceiling
  // and, under --adaptive-threads, the rule's thread count for rung 0 (its
  // 4:4:4 ones too) and one thread for the lower rungs.
  const auto encoder_settings = [&](int rung) {
    auto s = settings_.encoder;
    s.max_kbps = max_kbps_[size_t(rung)];
    if (settings_.adaptive_threads) s.threads = rung == 0 && thread_rule ? thread_rule->threads() : 1;
    return s;
  };
  // A stripe set when --stripes asks for more than one and the picture is
  // tall enough for them; x264 on the whole picture otherwise.
  const auto make_encoder = [&](Size size, const encode::EncoderSettings& s) -> std::unique_ptr<encode::VideoEncoder> {
    if (settings_.stripes > 1 && encode::stripe_bands(size, settings_.stripes).size() > 1)
      return std::make_unique<encode::StripeSet>(size, settings_.stripes, s, log_);
    return std::make_unique<encode::X264Encoder>(size, s, log_);
  };
  std::vector<encode::CodedPart> parts;
  const auto longest_settle = std::max(std::chrono::microseconds(settings_.coalesce_us),
                                       std::chrono::duration_cast<std::chrono::microseconds>(pacer.interval() / 4));
  uint32_t frame_id = 0;  // over every rung, so a consumer moving between rungs sees them rise
  // Where the picture lies on the desktop, from the newest capture; frames
  // made without one (paintover) show the same area.
  Point origin;
  Size captured;
  std::vector<Rect> rects;   // this capture's damage
  std::vector<Rect> damage;  // what a rung codes: rects and what it owed
  // Paintover: off when its CRF is no better than the normal one.
  const bool paintover_on = settings_.paintover_burst > 0 && settings_.paintover_crf < settings_.encoder.crf;
  FrameSchedule schedule(paintover_on ? settings_.paintover_burst : 0,
                         std::chrono::milliseconds(std::max(0, settings_.paintover_delay_ms)));
  std::array<bool, kMaxRungs> want{}, ready{};
  // When a still screen switches to 4:4:4 (a paintover then), if it may:
  // rung 0 only, while it is coded.
  const auto full_chroma_due = [&]() -> std::optional<Clock::time_point> {
    const bool allowed = settings_.full_chroma && full_chroma_ && want[0];
    const auto due = chroma.full_chroma_due(allowed);
    if (!due || !schedule.have_picture() || !last_frame ||
        encode::encodable_size(last_frame->size()) != image.size())
      return std::nullopt;
    return std::max(*due, schedule.still_from());
  };

  // The pacer follows rung 0 while it is coded (the lower rungs skip
  // captures down to their own rate), the fastest coded rung otherwise.
  int paced_fps = settings_.max_fps;
  const auto follow_rate = [&] {
    int fps = 0;
    if (want[0]) {
      fps = rungs[0].rate.fps();
    } else {
      for (int i = 1; i < rung_count; ++i)
        if (want[size_t(i)]) fps = std::max(fps, rungs[size_t(i)].rate.fps());
    }
    if (fps <= 0 || fps == paced_fps) return;
    paced_fps = fps;
    log_->debug("video: {} fps (rate factor {:.1f} over the CRF, ceiling {})", paced_fps, rungs[0].rate.excess(),
                rungs[0].rate.ceiling());
    pacer.set_max_fps(paced_fps);
  };
  const auto read_rungs = [&] {
    std::lock_guard lock(mu_);
    for (int i = 0; i < rung_count; ++i) {
      want[size_t(i)] = rung_coded_[size_t(i)];
      ready[size_t(i)] = rung_ready_[size_t(i)];
    }
  };

  while (wait_until_active()) {
    for (auto& rung : rungs) rung.rate.set_ceiling(max_fps_ceiling_);
    read_rungs();
    follow_rate();
    bool paused = false;
    {
      // Never faster than the frame rate: damage keeps accumulating in the
      // capturer meanwhile, so nothing is lost by waiting.
      std::unique_lock lock(mu_);
      if (cv_.wait_until(lock, pacer.earliest(), [this] { return stop_ || !active_; })) continue;
      // Don't produce while every viewer is congested.
      cv_.wait_for(lock, kMaxPause, [this] { return stop_ || !active_ || !paused_; });
      if (stop_ || !active_) continue;
      paused = paused_;
    }
    read_rungs();
    // A rung no one takes is not coded: its encoder goes.
    for (int i = 0; i < rung_count; ++i) {
      if (want[size_t(i)] || !rungs[size_t(i)].encoder) continue;
      rungs[size_t(i)].drop();
      owes_[size_t(i)] = false;
      if (i == 0) {
        encoder444.reset();
        coded = encode::ChromaFormat::k420;
      }
    }
    // Wait for damage until a paintover is due, or a ready rung's slot for
    // the damage it skipped, at most kIdleWait.
    const Clock::time_point ready_at = Clock::now();
    auto timeout = schedule.damage_wait(ready_at, full_chroma_due(), kIdleWait);
    for (int i = 0; i < rung_count; ++i) {
      const LadderRung& rung = rungs[size_t(i)];
      if (!want[size_t(i)] || !ready[size_t(i)] || !rung.owes()) continue;
      if (!rung.last_coded) {
        timeout = std::chrono::milliseconds(0);
        continue;
      }
      const auto until = std::chrono::ceil<std::chrono::milliseconds>(rung.next_slot(rung.rate.fps()) - ready_at);
      timeout = std::clamp(until, std::chrono::milliseconds(0), timeout);
    }
    capture::CaptureResult r;
    if (settings_.coalesce_us > 0) {
      // Let the rest of a drawing land in this frame: capture once the
      // damage has stopped for coalesce_us, at most a quarter frame after
      // it began, rather than half a frame now and the rest one capture
      // (and, held by the pacer, up to a frame) later.
      if (capturer_->wait_for_change(timeout))
        capturer_->wait_for_quiet(std::chrono::microseconds(settings_.coalesce_us), longest_settle);
      r = capturer_->capture(pool, std::chrono::milliseconds(0));
    } else {
      r = capturer_->capture(pool, timeout);
    }
    const Clock::time_point got = Clock::now();

    if (r.status == capture::CaptureStatus::kReinit) {
      if (!rebuild_capturer(r.error)) return;
      // The new capturer's first frame is its whole area; the viewers'
      // decoders start again from it.
      for (auto& k : keyframe_) k = true;
      continue;
    }
    if (r.status == capture::CaptureStatus::kPermanent) {
      log_->error("video capture stopped: {}", r.error);
      on_stopped_(r.error);
      return;
    }
    if (r.status == capture::CaptureStatus::kTemporary) {
      log_->debug("capture: {}", r.error);
      pacer.back_off(got);
      continue;
    }
    read_rungs();
    const bool change = r.status != capture::CaptureStatus::kNoChange;
    // Which rungs code this capture: coded ones whose consumers can take a
    // frame (or that waited kMaxPause) at their own frame rate's slot; a key
    // frame request does not wait for the slot.
    std::array<bool, kMaxRungs> codes{};
    bool any_codes = false;
    for (int i = 0; i < rung_count; ++i) {
      const LadderRung& rung = rungs[size_t(i)];
      const bool starved = !rung.last_coded || got - *rung.last_coded >= kMaxPause;
      codes[size_t(i)] = want[size_t(i)] && (ready[size_t(i)] || starved) &&
                         (rung.slot(got, rung.rate.fps()) || keyframe_[size_t(i)]);
      any_codes = any_codes || codes[size_t(i)];
    }
    // A capture that found nothing new codes what a rung owes or a key frame
    // asked for, or else a paintover when one is due.
    bool paintover = false;
    if (!change) {
      bool other = false;
      for (int i = 0; i < rung_count; ++i)
        if (codes[size_t(i)] && (rungs[size_t(i)].owes() || (keyframe_[size_t(i)] && schedule.have_picture())))
          other = true;
      if (!other) {
        // While paused, the pause wait above bounds how often this looks.
        if (!any_codes || !schedule.paintover_now(got, full_chroma_due(), paused)) continue;
        paintover = true;
      }
    }

    encode::EncodedFrame base;  // what every rung's frames of this capture share
    base.captured_at = r.frame ? r.frame->captured_at : got;
    // The wall clock at the grab's end, not now: the stamps count from it.
    base.capture_wall_us = wall_clock_us() - micros_between(base.captured_at, Clock::now());
    base.stamps.ready = std::min(ready_at, base.captured_at);
    base.stamps.grab_start = base.captured_at;
    bool resized = false;
    if (r.frame) {
      const capture::Frame& f = *r.frame;
      const Size want_size = encode::encodable_size(f.size());
      if (want_size.empty()) continue;
      base.times.capture_us = f.grab_us;
      origin = f.origin;
      captured = f.size();
      base.stamps.grab_start = f.captured_at - std::chrono::microseconds(f.grab_us);
      const auto t0 = Clock::now();
      if (image.size() != want_size) {
        // A new size: every rung starts again with a key frame of it.
        image = encode::I420Image(want_size);
        for (int i = 0; i < rung_count; ++i) {
          rungs[size_t(i)].drop();
          owes_[size_t(i)] = false;
        }
        encoder444.reset();
        thread_rule.reset();  // one thread, and the most it may have is the new size's
        rects.assign(1, Rect::from_size(want_size));
        resized = true;
      } else {
        rects = f.damage_rects;  // exact, or the block cover when there were many
      }
      converter.convert(f, rects, image);
      schedule.on_change(got);
      base.stamps.converted = Clock::now();
      base.times.convert_us = micros_between(t0, base.stamps.converted);
    } else {
      rects.clear();
      base.stamps.converted = Clock::now();
    }
    // What the rungs that do not code this capture owe.
    if (change && !resized)
      for (int i = 0; i < rung_count; ++i)
        if (want[size_t(i)] && !codes[size_t(i)]) rungs[size_t(i)].owe(rects);

    // --adaptive-threads for rung 0: a stripe set changes how many bands
    // code at once between frames, x264 only with a new encoder.
    LadderRung& top = rungs[0];
    if (codes[0] && settings_.adaptive_threads && top.encoder && r.frame) {
      if (!thread_rule) {
        // Stripes fan out over their bands; x264 over its slices.
        const int most = top.encoder->streams() > 1    ? top.encoder->streams()
                         : settings_.encoder.threads > 0 ? settings_.encoder.threads
                                                         : encode::auto_encoder_threads(
                                                               image.size(), settings_.max_fps,
                                                               std::thread::hardware_concurrency());
        thread_rule.emplace(most);
      }
      thread_rule->on_tick(got);
      if (top.encoder->threads() != thread_rule->threads()) {
        const int n = thread_rule->threads();
        if (top.encoder->set_threads(n)) {
          log_->debug("encoder: {} band{} at once from now on (--adaptive-threads)", n, n == 1 ? "" : "s");
          if (encoder444) encoder444->set_threads(n);
        } else {
          log_->debug("encoder: {} slice thread{} from now on (--adaptive-threads)", n, n == 1 ? "" : "s");
          top.encoder.reset();  // made again below, with a key frame
          encoder444.reset();
        }
      }
    }

    const bool whole_source = r.frame || (last_frame && encode::encodable_size(last_frame->size()) == image.size());
    int coded_rungs = 0;
    uint32_t work_us = base.times.convert_us;
    bool paintovers_settled = true;  // every rung that painted over found nothing left
    capture::FrameRef frame_ref = std::move(r.frame);
    for (int i = 0; i < rung_count; ++i) {
      if (!codes[size_t(i)]) continue;
      LadderRung& rung = rungs[size_t(i)];
      const bool asked_now = keyframe_[size_t(i)].load();
      // This rung's frame: what changed and what it owed (a catch-up), a
      // key frame asked for, or a paintover.
      const bool owed = rung.owes();
      rung.take(change ? std::span<const Rect>(rects) : std::span<const Rect>(), damage);
      const bool rung_change = change || owed;
      const bool rung_paintover = paintover && !rung_change;
      if (!rung_change && !rung_paintover && !asked_now) continue;
      bool key = false;
      if (!rung.encoder) {
        try {
          rung.encoder = make_encoder(image.size(), encoder_settings(i));
        } catch (const std::exception& e) {
          log_->error("cannot encode {}x{}: {}", image.size().width, image.size().height, e.what());
          on_stopped_(e.what());
          return;
        }
        key = true;
        damage.assign(1, Rect::from_size(image.size()));
      }
      auto out = std::make_shared<encode::EncodedFrame>(base);
      const auto t0 = Clock::now();
      // 4:2:0 or 4:4:4 for rung 0's frame. The key frame request is read
      // before the permission: a consumer that cannot take 4:4:4 withdraws
      // it before asking for its first key frame, so that key frame is 4:2:0.
      const bool asked = keyframe_[size_t(i)].exchange(false);
      encode::ChromaFormat format = encode::ChromaFormat::k420;
      bool switched = false;
      if (i == 0) {
        const bool allowed = settings_.full_chroma && full_chroma_ && whole_source;
        format = rung_paintover ? chroma.on_still(allowed, got)
                                : chroma.on_change(damaged_fraction(damage, image.size()), allowed, got);
        if (format == encode::ChromaFormat::k444 && (!encoder444 || coded != encode::ChromaFormat::k444)) {
          try {
            auto s = encoder_settings(0);
            s.chroma = encode::ChromaFormat::k444;
            s.range = settings_.full_chroma_range;
            // A new encoder at every switch, its VBV holding the bits of the
            // time since the last frame: the switch's IDR is a whole new
            // picture, which one interval of the ceiling starves (a flat grey
            // 1080p IDR of 8 KB at 3.8 Mbit/s, then frames too starved to
            // refine it).
            if (last_sent) s.first_frame_intervals = int((got - *last_sent) / pacer.interval());
            encoder444 = make_encoder(image.size(), s);
            if (image444.size() != image.size())
              image444 = encode::I420Image(image.size(), encode::ChromaFormat::k444, settings_.full_chroma_range);
          } catch (const std::exception& e) {
            // Not fatal: the stream stays 4:2:0 from here on.
            log_->warn("cannot encode 4:4:4, staying at 4:2:0: {}", e.what());
            settings_.full_chroma = false;
            format = chroma.on_change(1.0, false, got);
          }
        }
        if (format == encode::ChromaFormat::k444) {
          // Coming from 4:2:0 (or a new encoder) the 4:4:4 picture is stale
          // everywhere; after that only the damage is converted again, from
          // the newest whole picture.
          const bool whole = coded != encode::ChromaFormat::k444 || key;
          const capture::Frame* src = frame_ref ? frame_ref.get() : last_frame.get();
          if (src) {
            const Rect all = Rect::from_size(image444.size());
            converter.convert(*src, whole ? std::span<const Rect>(&all, 1) : std::span<const Rect>(damage), image444);
          }
          out->times.convert_us += micros_between(t0, Clock::now());
        }
        switched = format != coded;
        if (switched) {
          log_->debug("video: {} from here on", format == encode::ChromaFormat::k444 ? "4:4:4" : "4:2:0");
          // The burst after a switch to 4:4:4 refines its IDR.
          if (format == encode::ChromaFormat::k444) schedule.extend_burst(kFullChromaBurst);
        }
      }
      encode::VideoEncoder& enc = format == encode::ChromaFormat::k444 ? *encoder444 : *rung.encoder;
      const encode::I420Image& pic = format == encode::ChromaFormat::k444 ? image444 : image;
      enc.set_max_kbps(max_kbps_[size_t(i)]);
      enc.set_frame_rate(rung.rate.fps());
      enc.set_crf(rung_paintover ? settings_.paintover_crf : settings_.encoder.crf);
      // x264 refills its VBV after each frame: a burst's first frame banks the
      // bits of the stillness, its second spends them (an interval's cannot
      // sharpen what motion left blurred on a slow link or a busy machine).
      enc.set_gap_budget(schedule.gap_budget());
      const auto t1 = Clock::now();
      const int64_t pts = std::chrono::duration_cast<std::chrono::microseconds>(out->captured_at.time_since_epoch())
                              .count();
      // A switch starts the decoders again on the other profile: a key frame.
      // A change codes what it damaged (every stripe it touches); a paintover
      // has no damage and codes what is not sharp yet.
      const std::span<const Rect> coded_damage = rung_change || key ? std::span<const Rect>(damage) : std::span<const Rect>();
      if (!enc.encode(pic, pts, key || asked || switched, coded_damage, parts)) {
        if (asked) keyframe_[size_t(i)] = true;
        continue;  // a paintover found every stripe sharp already
      }
      out->stamps.encoded = Clock::now();
      out->times.encode_us = micros_between(t1, out->stamps.encoded);
      work_us += out->times.encode_us + (i == 0 ? out->times.convert_us - base.times.convert_us : 0);
      ++coded_rungs;
      out->encoder_threads = enc.threads();
      const bool is_key = std::any_of(parts.begin(), parts.end(), [](const encode::CodedPart& p) { return p.key; });
      if (i == 0 && thread_rule) {
        if (!rung_paintover && !is_key && rung_change && format == encode::ChromaFormat::k420)
          thread_rule->on_motion_frame(double(out->times.encode_us), 1e6 / std::max(1, rung.rate.fps()), got);
        else
          thread_rule->on_frame();
      }
      // Motion frames judge the rung's frame rate: fewer, sharper frames
      // when its cap makes them coarse (a key frame or a paintover says
      // nothing).
      out->rate_factor = enc.rate_factor();
      if (!rung_paintover && !is_key && rung_change) rung.rate.on_motion_frame(enc.rate_factor(), settings_.encoder.crf, got);
      out->frame_rate = rung.rate.fps();
      if (i == 0) {
        coded = format;
        last_sent = got;
      }
      // Nothing left to sharpen, unless the VBV starved a part small.
      const bool small = std::all_of(parts.begin(), parts.end(),
                                     [](const encode::CodedPart& p) { return p.data.size() < encode::kSettledBytes; });
      if (rung_paintover && !(small && !enc.last_frame_starved())) paintovers_settled = false;
      rung.last_coded = got;
      out->size = enc.size();
      out->origin = origin;
      out->captured = captured;
      out->stripes = enc.streams();
      out->rung = i;
      out->rung_budget = budget.rungs();
      out->rung_kbps = max_kbps_[size_t(i)];
      out->ladder_work_pct = int(budget.work_share() * 100 + 0.5);
      if (rung.codecs.size() != size_t(out->stripes)) rung.codecs.assign(size_t(out->stripes), std::string());
      // One frame per part; the last one goes out without a copy.
      for (size_t p = 0; p < parts.size(); ++p) {
        encode::CodedPart& part = parts[p];
        auto frame = p + 1 < parts.size() ? std::make_shared<encode::EncodedFrame>(*out) : std::move(out);
        frame->data = std::move(part.data);
        frame->key = part.key;
        frame->id = ++frame_id;
        frame->stripe = part.stripe;
        frame->band = part.band;
        frame->last_part = p + 1 == parts.size();
        std::string& codec = rung.codecs[size_t(part.stripe) % rung.codecs.size()];
        if (part.key) {
          if (auto c = encode::codec_string(frame->data)) codec = *c;
        }
        frame->codec = codec;
        on_frame_(std::move(frame));
      }
    }
    for (int i = 0; i < rung_count; ++i) owes_[size_t(i)] = rungs[size_t(i)].owes();
    if (settings_.full_chroma) {
      if (frame_ref) last_frame = std::move(frame_ref);
    } else {
      last_frame.reset();
    }
    if (paintover && paintovers_settled) schedule.end_burst();
    if (coded_rungs == 0) continue;
    follow_rate();
    if (rung_count > 1) {
      const int before = budget.rungs();
      budget.on_picture(coded_rungs, double(work_us), 1e6 / std::max(1, paced_fps), got);
      if (budget.rungs() != before)
        log_->info("video: the machine affords {} encode{} now (conversion and encodes took {:.0f}% of the frame "
                   "intervals over the last second)",
                   budget.rungs(), budget.rungs() == 1 ? "" : "s", budget.work_share() * 100);
    }
    pacer.on_capture(got);
  }
}

}  // namespace voxl::stream
