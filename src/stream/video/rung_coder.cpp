#include "stream/video/rung_coder.h"

#include <algorithm>
#include <thread>

#include "base/clock.h"
#include "encode/h264_bitstream.h"

namespace voxl::stream {

namespace {

using Clock = std::chrono::steady_clock;

// How much of the picture `rects` cover, 0..1 (overlaps counted twice).
double damaged_fraction(std::span<const Rect> rects, Size size) {
  double area = 0;
  for (const Rect& r : rects) area += double(r.width) * double(r.height);
  const double whole = double(size.width) * double(size.height);
  return whole > 0 ? std::min(1.0, area / whole) : 1.0;
}

}  // namespace

RungCoder::RungCoder(int index, const PipelineSettings& settings, EncoderFactory make_encoder, Logger log)
    : index_(index),
      settings_(settings),
      make_encoder_(std::move(make_encoder)),
      log_(std::move(log)),
      rung_(settings.min_fps, settings.max_fps),
      full_chroma_ok_(settings.full_chroma) {}

// What an encoder of this rung starts with: the rung's ceiling and, under
// --adaptive-threads, the rule's thread count for rung 0 (its 4:4:4 ones
// too) and one thread for the lower rungs.
encode::EncoderSettings RungCoder::settings_for(int max_kbps) const {
  auto s = settings_.encoder;
  s.max_kbps = max_kbps;
  if (settings_.adaptive_threads) s.threads = index_ == 0 && thread_rule_ ? thread_rule_->threads() : 1;
  return s;
}

void RungCoder::drop() {
  rung_.drop();
  encoder444_.reset();
  coded_ = encode::ChromaFormat::k420;
}

void RungCoder::restart() {
  // The format of the last frame stays: coming back in it after a new size
  // is no switch.
  rung_.drop();
  encoder444_.reset();
  thread_rule_.reset();  // one thread, and the most it may have is the new size's
}

std::optional<Clock::time_point> RungCoder::full_chroma_due(bool allowed) const {
  return chroma_.full_chroma_due(allowed && full_chroma_ok_);
}

void RungCoder::adapt_threads(Clock::time_point now, Size picture) {
  if (index_ != 0 || !settings_.adaptive_threads || !rung_.encoder) return;
  encode::VideoEncoder& enc = *rung_.encoder;
  if (!thread_rule_) {
    // Stripes fan out over their bands; x264 over its slices.
    const int most = enc.streams() > 1              ? enc.streams()
                     : settings_.encoder.threads > 0 ? settings_.encoder.threads
                                                     : encode::auto_encoder_threads(
                                                           picture, settings_.max_fps,
                                                           std::thread::hardware_concurrency());
    thread_rule_.emplace(most);
  }
  thread_rule_->on_tick(now);
  if (enc.threads() == thread_rule_->threads()) return;
  const int n = thread_rule_->threads();
  if (enc.set_threads(n)) {
    log_->debug("encoder: {} band{} at once from now on (--adaptive-threads)", n, n == 1 ? "" : "s");
    if (encoder444_) encoder444_->set_threads(n);
  } else {
    log_->debug("encoder: {} slice thread{} from now on (--adaptive-threads)", n, n == 1 ? "" : "s");
    rung_.encoder.reset();  // made again with the next frame, a key frame
    encoder444_.reset();
  }
}

// Rung 0's format for this frame: 4:4:4 while every consumer takes it and
// ChromaPolicy says so (a new 4:4:4 encoder at each switch, the 4:4:4
// picture brought up to date), 4:2:0 otherwise. Lower rungs: 4:2:0.
RungCoder::Format RungCoder::choose_format(const RungJob& job, PictureStore& pictures, bool key, bool paintover) {
  Format f;
  if (index_ != 0) return f;
  const auto t0 = Clock::now();
  const Size size = pictures.size();
  encode::ChromaFormat& format = f.format;
  const bool allowed = full_chroma_ok_ && job.full_chroma && job.source;
  format = paintover ? chroma_.on_still(allowed, job.got)
                     : chroma_.on_change(damaged_fraction(damage_, size), allowed, job.got);
  if (format == encode::ChromaFormat::k444 && (!encoder444_ || coded_ != encode::ChromaFormat::k444)) {
    try {
      auto s = settings_for(job.max_kbps);
      s.chroma = encode::ChromaFormat::k444;
      s.range = settings_.full_chroma_range;
      // A new encoder at every switch, its VBV holding the bits of the
      // time since the last frame: the switch's IDR is a whole new
      // picture, which one interval of the ceiling starves.
      if (last_sent_ && job.interval.count() > 0) s.first_frame_intervals = int((job.got - *last_sent_) / job.interval);
      encoder444_ = make_encoder_(size, s);
    } catch (const std::exception& e) {
      // Not fatal: the stream stays 4:2:0 from here on.
      log_->warn("cannot encode 4:4:4, staying at 4:2:0: {}", e.what());
      full_chroma_ok_ = false;
      format = chroma_.on_change(1.0, false, job.got);
    }
  }
  if (format == encode::ChromaFormat::k444) {
    // Coming from 4:2:0 (or a new encoder) the 4:4:4 picture is stale
    // everywhere; after that only the damage is converted again.
    pictures.full_chroma(*job.source, coded_ != encode::ChromaFormat::k444 || key, damage_);
    f.convert_us = micros_between(t0, Clock::now());
  }
  f.switched = format != coded_;
  if (f.switched) {
    log_->debug("video: {} from here on", format == encode::ChromaFormat::k444 ? "4:4:4" : "4:2:0");
    // The burst after a switch to 4:4:4 refines its IDR.
    if (format == encode::ChromaFormat::k444) job.schedule->extend_burst(kFullChromaBurst);
  }
  return f;
}

// One frame per part; the last one goes out without a copy.
void RungCoder::emit_parts(std::shared_ptr<encode::EncodedFrame> out, uint32_t& frame_id, const Emit& emit) {
  if (rung_.codecs.size() != size_t(out->stripes)) rung_.codecs.assign(size_t(out->stripes), std::string());
  for (size_t p = 0; p < parts_.size(); ++p) {
    encode::CodedPart& part = parts_[p];
    auto frame = p + 1 < parts_.size() ? std::make_shared<encode::EncodedFrame>(*out) : std::move(out);
    frame->data = std::move(part.data);
    frame->key = part.key;
    frame->id = ++frame_id;
    frame->stripe = part.stripe;
    frame->band = part.band;
    frame->last_part = p + 1 == parts_.size();
    std::string& codec = rung_.codecs[size_t(part.stripe) % rung_.codecs.size()];
    if (part.key) {
      if (auto c = encode::codec_string(frame->data)) codec = *c;
    }
    frame->codec = codec;
    emit(std::move(frame));
  }
}

RungResult RungCoder::code(const RungJob& job, PictureStore& pictures, const encode::EncodedFrame& base,
                           uint32_t& frame_id, const Emit& emit) {
  RungResult res;
  // This rung's frame: what changed and what it owed (a catch-up), a key
  // frame asked for, or a paintover.
  const bool owed = rung_.owes();
  rung_.take(job.change ? job.rects : std::span<const Rect>(), damage_);
  const bool change = job.change || owed;
  const bool paintover = job.paintover && !change;
  if (!change && !paintover && !job.key) return res;
  const Size size = pictures.size();
  bool key = false;
  if (!rung_.encoder) {
    try {
      rung_.encoder = make_encoder_(size, settings_for(job.max_kbps));
    } catch (const std::exception& e) {
      res.kind = RungResult::Kind::kFailed;
      res.restore_key = job.key;
      res.error = e.what();
      return res;
    }
    key = true;
    damage_.assign(1, Rect::from_size(size));
  }
  const Format f = choose_format(job, pictures, key, paintover);
  const encode::ChromaFormat format = f.format;
  const bool switched = f.switched;
  const uint32_t convert_us = f.convert_us;
  const bool full = format == encode::ChromaFormat::k444;
  encode::VideoEncoder& enc = full ? *encoder444_ : *rung_.encoder;
  const encode::I420Image& pic = full ? pictures.full_chroma_picture() : pictures.picture();
  enc.set_max_kbps(job.max_kbps);
  enc.set_frame_rate(rung_.rate.fps());
  const int motion_crf = job.crf > 0 ? job.crf : settings_.encoder.crf;
  enc.set_crf(paintover ? settings_.paintover_crf : motion_crf);
  // x264 refills its VBV after each frame: a burst's first frame banks the
  // bits of the stillness, its second spends them.
  enc.set_gap_budget(job.schedule->gap_budget());
  const auto t1 = Clock::now();
  const int64_t pts = std::chrono::duration_cast<std::chrono::microseconds>(base.captured_at.time_since_epoch()).count();
  // A switch starts the decoders again on the other profile: a key frame.
  // A change codes what it damaged (every stripe it touches); a paintover
  // has no damage and codes what is not sharp yet.
  const std::span<const Rect> coded_damage = change || key ? std::span<const Rect>(damage_) : std::span<const Rect>();
  if (!enc.encode(pic, pts, key || job.key || switched, coded_damage, parts_)) {
    res.kind = RungResult::Kind::kUnchanged;
    res.restore_key = job.key;
    return res;
  }
  auto out = std::make_shared<encode::EncodedFrame>(base);
  out->times.convert_us += convert_us;
  out->stamps.encoded = Clock::now();
  out->times.encode_us = micros_between(t1, out->stamps.encoded);
  res.kind = RungResult::Kind::kCoded;
  res.work_us = out->times.encode_us + convert_us;
  out->encoder_threads = enc.threads();
  const bool is_key = std::any_of(parts_.begin(), parts_.end(), [](const encode::CodedPart& p) { return p.key; });
  const bool motion = !paintover && !is_key && change;
  if (index_ == 0 && thread_rule_) {
    if (motion && !full)
      thread_rule_->on_motion_frame(double(out->times.encode_us), 1e6 / std::max(1, rung_.rate.fps()), job.got);
    else
      thread_rule_->on_frame();
  }
  // Motion frames judge the rung's frame rate: fewer, sharper frames when
  // its cap makes them coarse (a key frame or a paintover says nothing).
  out->rate_factor = enc.rate_factor();
  if (motion) rung_.rate.on_motion_frame(enc.rate_factor(), motion_crf, job.got);
  out->frame_rate = rung_.rate.fps();
  out->smooth = rung_.rate.smooth();
  if (index_ == 0) {
    coded_ = format;
    last_sent_ = job.got;
  }
  // Nothing left to sharpen, unless the VBV starved a part small.
  const bool small = std::all_of(parts_.begin(), parts_.end(),
                                 [](const encode::CodedPart& p) { return p.data.size() < encode::kSettledBytes; });
  if (paintover && !(small && !enc.last_frame_starved())) res.settled = false;
  rung_.last_coded = job.got;
  out->size = enc.size();
  out->stripes = enc.streams();
  out->rung = index_;
  out->rung_kbps = job.max_kbps;
  emit_parts(std::move(out), frame_id, emit);
  return res;
}

}  // namespace voxl::stream
