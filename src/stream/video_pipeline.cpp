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
      max_kbps_(settings_.encoder.max_kbps),
      max_fps_ceiling_(settings_.max_fps) {
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

void VideoPipeline::request_keyframe() {
  keyframe_ = true;
  wake_capturer();
}

void VideoPipeline::set_max_kbps(int kbps) { max_kbps_ = kbps; }

void VideoPipeline::set_max_fps(int fps) { max_fps_ceiling_ = fps; }

void VideoPipeline::set_full_chroma(bool allowed) {
  full_chroma_ = allowed;
  wake_capturer();  // a still screen may now be painted over in 4:4:4
}

bool VideoPipeline::rebuild_capturer(const std::string& why) {
  {
    std::lock_guard lock(mu_);
    capturer_.reset();
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
        log_->info("video capture is back: {}", fresh->describe());
        std::lock_guard lock(mu_);
        capturer_ = std::move(fresh);
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
  // while the stream is 4:4:4, and made whole from `last_frame` when it
  // switches (so motion costs no 4:4:4 conversion).
  encode::I420Image image, image444;
  std::unique_ptr<encode::VideoEncoder> encoder, encoder444;
  // The newest captured picture, whole (the pool brings every frame up to
  // date). Held while 4:4:4 is on, so a switch can convert all of it; the
  // capturer still has the pool's other buffer.
  capture::FrameRef last_frame;
  ChromaPolicy chroma;
  encode::ChromaFormat coded = encode::ChromaFormat::k420;  // the last frame sent
  std::optional<Clock::time_point> last_sent;  // when the last frame encoded was captured
  FramePacer pacer(settings_.max_fps);
  FrameRateGovernor rate(settings_.min_fps, settings_.max_fps);
  // --adaptive-threads: made with the first encoder, when its size (and so
  // its automatic thread count) is known.
  std::optional<EncoderThreadRule> thread_rule;
  // What every encoder made now starts with: the current ceiling and, under
  // --adaptive-threads, the rule's thread count (4:4:4 ones too).
  const auto encoder_settings = [&] {
    auto s = settings_.encoder;
    s.max_kbps = max_kbps_;
    if (settings_.adaptive_threads) s.threads = thread_rule ? thread_rule->threads() : 1;
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
  std::vector<std::string> codecs;  // each stream's, from its last key frame
  uint32_t frame_id = 0;
  // Where the picture lies on the desktop, from the newest capture; frames
  // made without one (paintover) show the same area.
  Point origin;
  Size captured;
  std::vector<Rect> rects;
  // Paintover: off when its CRF is no better than the normal one.
  const bool paintover_on = settings_.paintover_burst > 0 && settings_.paintover_crf < settings_.encoder.crf;
  FrameSchedule schedule(paintover_on ? settings_.paintover_burst : 0,
                         std::chrono::milliseconds(std::max(0, settings_.paintover_delay_ms)));
  // When a still screen switches to 4:4:4 (a paintover then), if it may.
  const auto full_chroma_due = [&]() -> std::optional<Clock::time_point> {
    const bool allowed = settings_.full_chroma && full_chroma_;
    const auto due = chroma.full_chroma_due(allowed);
    if (!due || !schedule.have_picture() || !last_frame ||
        encode::encodable_size(last_frame->size()) != image.size())
      return std::nullopt;
    return std::max(*due, schedule.still_from());
  };

  int paced_fps = rate.fps();  // what the pacer was last given
  const auto follow_rate = [&] {
    if (rate.fps() == paced_fps) return;
    paced_fps = rate.fps();
    log_->debug("video: {} fps (rate factor {:.1f} over the CRF, ceiling {})", paced_fps, rate.excess(),
                rate.ceiling());
    pacer.set_max_fps(paced_fps);
  };

  while (wait_until_active()) {
    rate.set_ceiling(max_fps_ceiling_);
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
    // Wait for damage until a paintover is due, at most kIdleWait.
    const Clock::time_point ready = Clock::now();
    const auto timeout = schedule.damage_wait(ready, full_chroma_due(), kIdleWait);
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
    // A key frame request is only taken once a frame is really encoded;
    // until then it stays pending, whatever this capture returned.
    bool key = false;
    const Clock::time_point got = Clock::now();

    if (r.status == capture::CaptureStatus::kReinit) {
      if (!rebuild_capturer(r.error)) return;
      // The new capturer's first frame is its whole area; the viewers'
      // decoders start again from it.
      keyframe_ = true;
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
    bool paintover = false;
    if (r.status == capture::CaptureStatus::kNoChange && !(keyframe_ && schedule.have_picture())) {
      // While paused, the pause wait above bounds how often this looks.
      if (!schedule.paintover_now(got, full_chroma_due(), paused)) continue;
      paintover = true;
    }

    auto out = std::make_shared<encode::EncodedFrame>();
    out->captured_at = r.frame ? r.frame->captured_at : got;
    // The wall clock at the grab's end, not now: the stamps count from it.
    out->capture_wall_us = wall_clock_us() - micros_between(out->captured_at, Clock::now());
    out->stamps.ready = std::min(ready, out->captured_at);
    out->stamps.grab_start = out->captured_at;
    double damaged = 0;
    if (r.frame) {
      const capture::Frame& f = *r.frame;
      const Size want = encode::encodable_size(f.size());
      out->times.capture_us = f.grab_us;
      origin = f.origin;
      captured = f.size();
      out->stamps.grab_start = f.captured_at - std::chrono::microseconds(f.grab_us);
      const auto t0 = Clock::now();
      if (settings_.adaptive_threads && encoder && encoder->size() == want) {
        if (!thread_rule) {
          // Stripes fan out over their bands; x264 over its slices.
          const int most = encoder->streams() > 1      ? encoder->streams()
                           : settings_.encoder.threads > 0 ? settings_.encoder.threads
                                                           : encode::auto_encoder_threads(
                                                                 want, settings_.max_fps, std::thread::hardware_concurrency());
          thread_rule.emplace(most);
        }
        thread_rule->on_tick(got);
      }
      bool threads_changed = thread_rule && encoder && encoder->threads() != thread_rule->threads();
      // A stripe set changes how many bands code at once between frames,
      // with no key frame.
      if (threads_changed && encoder->set_threads(thread_rule->threads())) {
        log_->debug("encoder: {} band{} at once from now on (--adaptive-threads)", thread_rule->threads(),
                    thread_rule->threads() == 1 ? "" : "s");
        if (encoder444) encoder444->set_threads(thread_rule->threads());
        threads_changed = false;
      }
      if (!encoder || encoder->size() != want || threads_changed) {
        if (want.empty()) continue;
        if (threads_changed) {
          log_->debug("encoder: {} slice thread{} from now on (--adaptive-threads)", thread_rule->threads(),
                      thread_rule->threads() == 1 ? "" : "s");
        } else {
          image = encode::I420Image(want);
          thread_rule.reset();  // a new size: one thread, and the most it may have is the new size's
        }
        encoder444.reset();  // made again at this size when next needed
        try {
          encoder = make_encoder(want, encoder_settings());
        } catch (const std::exception& e) {
          log_->error("cannot encode {}x{}: {}", want.width, want.height, e.what());
          on_stopped_(e.what());
          return;
        }
        rects.assign(1, Rect::from_size(want));
        key = true;
      } else {
        rects = f.damage_rects;  // exact, or the block cover when there were many
      }
      converter.convert(f, rects, image);
      damaged = damaged_fraction(rects, want);
      schedule.on_change(got);
      out->stamps.converted = Clock::now();
      out->times.convert_us = micros_between(t0, out->stamps.converted);
    } else {
      out->stamps.converted = Clock::now();
    }

    // 4:2:0 or 4:4:4 for this frame. The key frame request is read before
    // the permission: a consumer that cannot take 4:4:4 withdraws it
    // before asking for its first key frame, so that key frame is 4:2:0.
    const bool asked = keyframe_.exchange(false);
    // 4:4:4 needs a whole picture to start from: this frame or the last.
    const bool whole_source = r.frame || (last_frame && encode::encodable_size(last_frame->size()) == image.size());
    const bool allowed = settings_.full_chroma && full_chroma_ && whole_source;
    encode::ChromaFormat format = paintover ? chroma.on_still(allowed, got) : chroma.on_change(damaged, allowed, got);
    if (format == encode::ChromaFormat::k444 && (!encoder444 || coded != encode::ChromaFormat::k444)) {
      try {
        auto s = encoder_settings();
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
      const auto t0 = Clock::now();
      // Coming from 4:2:0 (or a new size) the 4:4:4 picture is stale
      // everywhere; after that only the damage is converted again.
      const bool whole = coded != encode::ChromaFormat::k444 || key;
      const capture::Frame* src = r.frame ? r.frame.get() : last_frame.get();
      if (whole) {
        const Rect all = Rect::from_size(image444.size());
        if (src) converter.convert(*src, std::span<const Rect>(&all, 1), image444);
      } else if (r.frame) {
        converter.convert(*r.frame, rects, image444);
      }
      out->times.convert_us += micros_between(t0, Clock::now());
    }
    if (settings_.full_chroma) {
      if (r.frame) last_frame = std::move(r.frame);
    } else {
      last_frame.reset();
    }
    const bool change = r.status != capture::CaptureStatus::kNoChange;
    r.frame.reset();  // the buffer goes back to the pool before encoding

    const bool switched = format != coded;
    if (switched) {
      log_->debug("video: {} from here on", format == encode::ChromaFormat::k444 ? "4:4:4" : "4:2:0");
      // The burst after a switch to 4:4:4 refines its IDR.
      if (format == encode::ChromaFormat::k444) schedule.extend_burst(kFullChromaBurst);
    }
    encode::VideoEncoder& enc = format == encode::ChromaFormat::k444 ? *encoder444 : *encoder;
    const encode::I420Image& pic = format == encode::ChromaFormat::k444 ? image444 : image;
    enc.set_max_kbps(max_kbps_);
    enc.set_frame_rate(rate.fps());
    enc.set_crf(paintover ? settings_.paintover_crf : settings_.encoder.crf);
    // x264 refills its VBV after each frame: a burst's first frame banks the
    // bits of the stillness, its second spends them (an interval's cannot
    // sharpen what motion left blurred on a slow link or a busy machine).
    enc.set_gap_budget(schedule.gap_budget());
    const auto t1 = Clock::now();
    const int64_t pts = std::chrono::duration_cast<std::chrono::microseconds>(
                            out->captured_at.time_since_epoch())
                            .count();
    // A switch starts the decoders again on the other profile: a key frame.
    // A change codes what it damaged (every stripe it touches); a paintover
    // has no damage and codes what is not sharp yet.
    const std::span<const Rect> damage = change ? std::span<const Rect>(rects) : std::span<const Rect>();
    if (!enc.encode(pic, pts, key || asked || switched, damage, parts)) {
      if (asked) keyframe_ = true;
      if (paintover) schedule.end_burst();  // every stripe is sharp already
      continue;
    }
    out->stamps.encoded = Clock::now();
    out->times.encode_us = micros_between(t1, out->stamps.encoded);
    out->encoder_threads = enc.threads();
    const bool is_key = std::any_of(parts.begin(), parts.end(), [](const encode::CodedPart& p) { return p.key; });
    if (thread_rule) {
      if (!paintover && !is_key && change && &enc == encoder.get())
        thread_rule->on_motion_frame(double(out->times.encode_us), 1e6 / std::max(1, rate.fps()), got);
      else
        thread_rule->on_frame();
    }
    // Motion frames judge the frame rate: fewer, sharper frames when the
    // cap makes them coarse (a key frame or a paintover says nothing).
    out->rate_factor = enc.rate_factor();
    if (!paintover && !is_key && change) {
      rate.on_motion_frame(enc.rate_factor(), settings_.encoder.crf, got);
      follow_rate();
    }
    out->frame_rate = rate.fps();
    coded = format;
    // Nothing left to sharpen, unless the VBV starved a part small.
    const bool small = std::all_of(parts.begin(), parts.end(),
                                   [](const encode::CodedPart& p) { return p.data.size() < encode::kSettledBytes; });
    if (paintover && small && !enc.last_frame_starved()) schedule.end_burst();
    last_sent = got;
    out->size = enc.size();
    out->origin = origin;
    out->captured = captured;
    out->stripes = enc.streams();
    if (codecs.size() != size_t(out->stripes)) codecs.assign(size_t(out->stripes), std::string());
    // One frame per part; the last one goes out without a copy.
    for (size_t i = 0; i < parts.size(); ++i) {
      encode::CodedPart& part = parts[i];
      auto frame = i + 1 < parts.size() ? std::make_shared<encode::EncodedFrame>(*out) : std::move(out);
      frame->data = std::move(part.data);
      frame->key = part.key;
      frame->id = ++frame_id;
      frame->stripe = part.stripe;
      frame->band = part.band;
      frame->last_part = i + 1 == parts.size();
      std::string& codec = codecs[size_t(part.stripe) % codecs.size()];
      if (part.key) {
        if (auto c = encode::codec_string(frame->data)) codec = *c;
      }
      frame->codec = codec;
      on_frame_(std::move(frame));
    }
    pacer.on_capture(got);
  }
}

}  // namespace voxl::stream
