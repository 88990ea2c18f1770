#include "encode/x264_encoder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

extern "C" {
#include <x264.h>
}

namespace voxl::encode {

namespace {

void log_from_x264(void* opaque, int level, const char* fmt, va_list args) {
  char buf[512];
  std::vsnprintf(buf, sizeof buf, fmt, args);
  size_t n = std::strlen(buf);
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) buf[--n] = 0;
  auto* log = static_cast<spdlog::logger*>(opaque);
  if (level <= X264_LOG_ERROR) log->error("x264: {}", buf);
  else if (level == X264_LOG_WARNING) log->warn("x264: {}", buf);
  else log->debug("x264: {}", buf);
}

constexpr int kFullChromaQpOffset = -6;

// A VBV buffer of about one frame at the ceiling: no frame, key frames
// included, takes much longer than a frame interval to cross a link that
// carries the ceiling, so a burst cannot queue behind itself;
// `frames` intervals of it to bank a gap (refill and buffer grow together).
int vbv_buffer_kbit(int max_kbps, int fps, double frames = 1) {
  return std::max(1, int(std::min(double(max_kbps) * frames / std::max(1, fps), double(INT32_MAX))));
}
int vbv_rate_kbps(int max_kbps, double frames) { return int(std::min(double(max_kbps) * frames, double(INT32_MAX))); }

}  // namespace

int auto_encoder_threads(Size size, int fps, unsigned cpus) {
  constexpr double kPixelRatePerThread = 1920.0 * 1080.0 * 30.0;
  const double rate = double(std::max(0, size.width)) * double(std::max(0, size.height)) * double(std::max(1, fps));
  const int wanted = int(std::ceil(rate / kPixelRatePerThread - 1e-9));
  return std::clamp(wanted, 1, std::clamp(int(cpus), 1, 4));
}

X264Encoder::X264Encoder(Size size, const EncoderSettings& s, Logger log)
    : size_(size), chroma_(s.chroma), range_(s.range), fps_(s.fps), max_kbps_(s.max_kbps), crf_(s.crf), coded_fps_(std::max(1, s.fps)), log_(std::move(log)) {
  x264_param_t p;
  if (x264_param_default_preset(&p, s.preset.c_str(), "zerolatency") < 0)
    throw std::runtime_error("x264 does not know the preset '" + s.preset + "'");
  p.i_width = size.width;
  p.i_height = size.height;
  const bool full_chroma = s.chroma == ChromaFormat::k444;
  p.i_csp = full_chroma ? X264_CSP_I444 : X264_CSP_I420;
  p.i_threads = s.threads > 0 ? s.threads : auto_encoder_threads(size, s.fps, std::thread::hardware_concurrency());
  p.b_sliced_threads = 1;
  threads_ = p.i_threads;
  p.i_fps_num = uint32_t(std::max(1, s.fps));
  p.i_fps_den = 1;
  p.i_timebase_num = 1;
  p.i_timebase_den = 1000000;
  // Constant-rate timing although frames come only when the screen changes:
  // with VFR input x264 holds each frame back until the next one arrives
  // (it needs the next timestamp), which would cost a whole frame of
  // latency and leave the last change of a burst unsent.
  p.b_vfr_input = 0;
  p.i_keyint_max = X264_KEYINT_MAX_INFINITE;
  p.i_keyint_min = 1;
  p.b_repeat_headers = 1;
  p.b_annexb = 1;
  p.rc.i_rc_method = X264_RC_CRF;
  p.rc.f_rf_constant = float(s.crf);
  budget_frames_ = std::clamp(s.first_frame_intervals, 1, max_budget_frames());
  p.rc.i_vbv_max_bitrate = vbv_rate_kbps(s.max_kbps, budget_frames_);
  p.rc.i_vbv_buffer_size = vbv_buffer_kbit(s.max_kbps, s.fps, budget_frames_);
  // A banked first frame may take the whole buffer (x264 starts it 90% full).
  if (budget_frames_ > 1) p.rc.f_vbv_buffer_init = 1.0f;
  // At 4:4:4 chroma is coded like luma, but RGB amplifies its errors (R
  // takes 1.6x the Cr error, B 2x the Cb error): a finer chroma quantiser
  // buys about 4.5 dB of RGB PSNR on coloured text for about 25% more
  // bytes (tests/unit/full_chroma_test.cpp prints the figures).
  if (full_chroma) p.analyse.i_chroma_qp_offset = kFullChromaQpOffset;
  p.pf_log = log_from_x264;
  p.p_log_private = log_.get();
  p.i_log_level = X264_LOG_WARNING;
  // Say exactly what the converter produced: BT.601 (SMPTE 170M) in the
  // image's range. Without it decoders guess BT.709 and every colour shifts.
  constexpr int kSmpte170m = 6;  // H.264 Table E-3/E-4/E-5
  p.vui.b_fullrange = s.range == ColourRange::kFull ? 1 : 0;
  p.vui.i_colorprim = kSmpte170m;
  p.vui.i_transfer = kSmpte170m;
  p.vui.i_colmatrix = kSmpte170m;
  // High 4:4:4 Predictive is the only 8-bit profile with full-resolution
  // chroma (profile_idc 244: "avc1.F400LL").
  const char* profile = full_chroma ? "high444" : "baseline";
  if (x264_param_apply_profile(&p, profile) < 0)
    throw std::runtime_error(std::string("x264 cannot apply the ") + profile + " profile");
  enc_ = x264_encoder_open(&p);
  if (!enc_)
    throw std::runtime_error("x264 cannot open an encoder for " + std::to_string(size.width) + "x" +
                             std::to_string(size.height));
}

int X264Encoder::max_budget_frames() const {
  const int64_t interval_us = 1'000'000 / std::max(1, fps_);
  return int(std::max<int64_t>(1, kMaxFrameBudgetUs / interval_us));
}

X264Encoder::~X264Encoder() {
  if (enc_) x264_encoder_close(enc_);
}

bool X264Encoder::encode(const I420Image& image, int64_t pts_us, bool force_key, std::span<const Rect> damage,
                         std::vector<CodedPart>& out) {
  (void)damage;
  out.clear();
  CodedPart part;
  part.band = Rect::from_size(size_);
  const auto t0 = std::chrono::steady_clock::now();
  if (!encode(image.view(), pts_us, force_key, part.data, part.key)) return false;
  part.encode_us = uint32_t(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count());
  part.rate_factor = rate_factor_;
  part.starved = last_frame_starved();
  out.push_back(std::move(part));
  return true;
}

bool X264Encoder::encode(const PictureView& image, int64_t pts_us, bool force_key, std::vector<uint8_t>& out,
                         bool& is_key) {
  if (image.chroma != chroma_ || image.range != range_ || image.size != size_) {
    log_->error("x264: a picture of another format than the encoder's");
    return false;
  }
  x264_picture_t in;
  x264_picture_init(&in);
  in.img.i_csp = chroma_ == ChromaFormat::k444 ? X264_CSP_I444 : X264_CSP_I420;
  in.img.i_plane = 3;
  // x264 only reads the planes.
  in.img.plane[0] = const_cast<uint8_t*>(image.y);
  in.img.plane[1] = const_cast<uint8_t*>(image.u);
  in.img.plane[2] = const_cast<uint8_t*>(image.v);
  in.img.i_stride[0] = image.stride_y;
  in.img.i_stride[1] = image.stride_uv;
  in.img.i_stride[2] = image.stride_uv;
  in.i_pts = pts_us;
  in.i_type = force_key ? X264_TYPE_IDR : X264_TYPE_AUTO;
  // The refill after this frame: one interval, the gap before it, or what
  // the previous frame banked.
  const int64_t interval_us = 1'000'000 / std::max(1, fps_);
  const int max_frames = max_budget_frames();
  // The first frame keeps the budget it was made with.
  int frames = have_pts_ ? 1 : budget_frames_;
  if (gap_budget_ == GapBudget::kBank && have_pts_)
    frames = int(std::clamp<int64_t>((pts_us - last_pts_us_) / interval_us, 1, max_frames));
  else if (gap_budget_ == GapBudget::kSpend)
    frames = budget_frames_;
  have_pts_ = true;
  last_pts_us_ = pts_us;
  if (frames != budget_frames_) reconfigure(max_kbps_, crf_, frames);

  x264_picture_t pic_out;
  x264_nal_t* nals = nullptr;
  int n = 0;
  const int bytes = x264_encoder_encode(enc_, &nals, &n, &in, &pic_out);
  if (bytes < 0) {
    log_->error("x264 failed to encode a frame");
    return false;
  }
  if (bytes == 0 || n == 0) return false;
  // The payloads are contiguous in x264's buffer, start codes included.
  const size_t at = out.size();
  out.resize(at + size_t(bytes));
  std::memcpy(out.data() + at, nals[0].p_payload, size_t(bytes));
  is_key = pic_out.b_keyframe != 0;
  rate_factor_ = pic_out.prop.f_crf_avg;
  log_->trace("x264: frame {} bytes, effective CRF {:.1f} (CRF {}, VBV {} intervals)", bytes, rate_factor_, crf_,
              budget_frames_);
  return true;
}

void X264Encoder::set_max_kbps(int kbps) {
  if (kbps != max_kbps_) reconfigure(kbps, crf_, budget_frames_);
}

void X264Encoder::set_frame_rate(int fps) {
  fps = std::clamp(fps, 1, std::max(1, fps_));
  if (fps == coded_fps_) return;
  coded_fps_ = fps;
  reconfigure(max_kbps_, crf_, budget_frames_);
}

void X264Encoder::set_crf(int crf) {
  if (crf != crf_) reconfigure(max_kbps_, crf, budget_frames_);
}

// x264_encoder_parameters() returns the settings in use, not one pending
// from an earlier reconfig before the next frame, and a second reconfig
// replaces the pending one. So every reconfig carries everything this
// class changes: a cap change followed by a CRF change (a paintover starting
// or ending) would otherwise be lost while max_kbps() claims it was made.
void X264Encoder::reconfigure(int max_kbps, int crf, int budget_frames) {
  x264_param_t p;
  x264_encoder_parameters(enc_, &p);
  // x264 refills the VBV by a nominal interval's share of the rate after
  // each frame: at a lower frame rate a frame's share is that many intervals.
  const double intervals = std::max(double(budget_frames), double(fps_) / double(coded_fps_));
  p.rc.i_vbv_max_bitrate = vbv_rate_kbps(max_kbps, intervals);
  p.rc.i_vbv_buffer_size = vbv_buffer_kbit(max_kbps, fps_, intervals);
  p.rc.f_rf_constant = float(crf);
  const int rc = x264_encoder_reconfig(enc_, &p);
  if (max_kbps != max_kbps_)
    log_->debug("x264 bitrate cap {} -> {} kbit/s{}", max_kbps_, max_kbps, rc == 0 ? "" : ": refused");
  if (rc != 0) return;
  max_kbps_ = max_kbps;
  crf_ = crf;
  budget_frames_ = budget_frames;
}

}  // namespace voxl::encode
