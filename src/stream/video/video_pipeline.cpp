#include "stream/video/video_pipeline.h"

#include <algorithm>

#include "encode/stripe_layout.h"
#include "encode/stripe_set.h"
#include "stream/video/video_loop.h"

namespace voxl::stream {

VideoPipeline::VideoPipeline(std::unique_ptr<capture::Capturer> capturer, CapturerFactory factory,
                             PipelineSettings settings, Logger log, FrameCallback on_frame, StopCallback on_stopped,
                             EncoderFactory make_encoder, BudgetCallback on_budget)
    : settings_(std::move(settings)),
      log_(std::move(log)),
      make_encoder_(make_encoder ? std::move(make_encoder) : default_encoders(settings_, log_)),
      on_frame_(std::move(on_frame)),
      on_stopped_(std::move(on_stopped)),
      on_budget_(std::move(on_budget)),
      controls_(settings_.max_fps, settings_.encoder.max_kbps),
      driver_(std::move(capturer), std::move(factory), log_, std::chrono::microseconds(settings_.coalesce_us),
              std::max(std::chrono::microseconds(settings_.coalesce_us),
                       std::chrono::microseconds(1000000 / std::max(1, settings_.max_fps) / 4))),
      thread_([this] { run(); }) {}

VideoPipeline::~VideoPipeline() {
  controls_.stop();
  driver_.wake();
  thread_.join();
}

// A stripe set when --stripes asks for more than one and the picture is
// tall enough for them; x264 on the whole picture otherwise.
VideoPipeline::EncoderFactory VideoPipeline::default_encoders(const PipelineSettings& settings, const Logger& log) {
  return [stripes = settings.stripes, log](Size size,
                                           const encode::EncoderSettings& s) -> std::unique_ptr<encode::VideoEncoder> {
    if (stripes > 1 && encode::stripe_bands(size, stripes).size() > 1)
      return std::make_unique<encode::StripeSet>(size, stripes, s, log);
    return std::make_unique<encode::X264Encoder>(size, s, log);
  };
}

void VideoPipeline::set_active(bool active) {
  controls_.set_active(active);
  if (!active) driver_.wake();
}

void VideoPipeline::set_paused(bool paused) { controls_.set_paused(paused); }

void VideoPipeline::set_rung(int rung, bool coded, bool ready) {
  if (controls_.set_rung(rung, coded, ready)) driver_.wake();
}

void VideoPipeline::request_keyframe(int rung) {
  controls_.ask_key(rung);
  driver_.wake();
}

void VideoPipeline::set_max_kbps(int rung, int kbps) { controls_.set_max_kbps(rung, kbps); }

void VideoPipeline::set_max_fps(int fps) { controls_.set_max_fps(fps); }

void VideoPipeline::set_motion(Motion m) { controls_.set_motion(m); }

void VideoPipeline::set_full_chroma(bool allowed) {
  controls_.set_full_chroma(allowed);
  driver_.wake();  // a still screen may now be painted over in 4:4:4
}

std::optional<std::string> VideoPipeline::capture_lost() const { return driver_.lost(); }

// Nothing may escape the thread: a fault stops the video the way a lost
// capture does, through on_stopped_, and the daemon ends cleanly.
void VideoPipeline::run() {
  std::string why;
  try {
    VideoLoop loop(settings_, log_, controls_, driver_, make_encoder_, on_frame_, on_stopped_, on_budget_);
    loop.run();
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

}  // namespace voxl::stream
