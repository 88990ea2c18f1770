#include "app/video_wiring.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <chrono>

#include "stream/video/video_pipeline.h"

namespace voxl::app {

namespace {

namespace asio = boost::asio;

// The ladder's rule (stream::LadderBudget), as /stats states it.
constexpr const char* kLadderRule =
    "one rung fewer after a second in which converting and coding the pictures took over 90% of their frame "
    "intervals; one more, 10 s later at the soonest, after 3 s in which the estimate with it stayed under 60%";

stream::PipelineSettings pipeline_settings(const Config& c) {
  stream::PipelineSettings s;
  s.encoder.preset = c.preset;
  s.encoder.crf = c.crf;
  s.encoder.threads = c.encoder_threads;
  s.encoder.max_kbps = c.max_kbps;
  s.encoder.fps = c.framerate;
  s.max_fps = c.framerate;
  s.min_fps = c.framerate_min;
  s.convert_threads = c.convert_threads;
  s.adaptive_threads = c.adaptive_threads;
  s.stripes = c.stripes;
  s.max_encodes = c.max_encodes;
  s.coalesce_us = c.coalesce_us;
  s.paintover_crf = c.paintover_crf;
  s.paintover_burst = c.paintover_burst;
  s.paintover_delay_ms = c.paintover_delay_ms;
  s.full_chroma = c.paintover_444;
  return s;
}

}  // namespace

struct VideoWiring::KeyTimer {
  explicit KeyTimer(asio::io_context& io) : timer(io) {}
  asio::steady_timer timer;
};

VideoWiring::VideoWiring(const Config& config, asio::io_context& io, const Logger& log)
    : config_(config),
      io_(io),
      log_(log),
      key_timer_(std::make_unique<KeyTimer>(io)),
      // The hub is made before the pipeline and outlives it: until start()
      // and after stop() its controls reach nothing.
      hub_({[this](bool on) { if (pipeline_) pipeline_->set_active(on); },
            [this](int rung) { if (pipeline_) pipeline_->request_keyframe(rung); },
            [this](bool paused) { if (pipeline_) pipeline_->set_paused(paused); },
            [this](int rung, int kbps) { if (pipeline_) pipeline_->set_max_kbps(rung, kbps); },
            [this](bool full) { if (pipeline_) pipeline_->set_full_chroma(full); },
            [this](std::chrono::steady_clock::duration delay) {
              if (!key_timer_) return;  // stopped
              key_timer_->timer.expires_after(delay);
              key_timer_->timer.async_wait([this](const boost::system::error_code& ec) {
                if (!ec) hub_.on_key_timer();
              });
            },
            {},
            [this](int fps) { if (pipeline_) pipeline_->set_max_fps(fps); },
            [this](int rung, bool coded, bool ready) { if (pipeline_) pipeline_->set_rung(rung, coded, ready); },
            [this](stream::Motion m) { if (pipeline_) pipeline_->set_motion(m); }},
           log) {
  hub_.set_bitrate_limits({config.min_kbps, config.max_kbps});
  hub_.set_max_rungs(config.max_encodes);
  hub_.set_server_max_fps(config.framerate);
  hub_.set_server_motion(config.motion);
}

VideoWiring::~VideoWiring() { stop(); }

stream::StreamFigures VideoWiring::figures() const {
  const auto now = std::chrono::steady_clock::now();
  stream::StreamFigures f;
  f.stream = stats_[0].figures(now);
  stream::LadderFigures& ladder = f.ladder.emplace();
  ladder.max_encodes = hub_.max_rungs();
  ladder.affordable = std::min(hub_.max_rungs(), hub_.rung_budget());
  ladder.work_pct = ladder_work_pct_;
  ladder.moves = hub_.rung_moves();
  ladder.rule = kLadderRule;
  for (int r = 0; r < hub_.max_rungs(); ++r) {
    if (!hub_.rung_coded(r) && hub_.sinks_on(r) == 0) continue;
    ladder.rungs.push_back({r, hub_.sinks_on(r), hub_.target_kbps(r), stats_[size_t(r)].figures(now)});
  }
  return f;
}

void VideoWiring::write_metrics(MetricsText& out) const { metrics_.write(out); }

std::optional<std::string> VideoWiring::not_ready() const {
  if (!pipeline_) return "the video pipeline has not started";
  if (auto lost = pipeline_->capture_lost()) return "video capture lost (" + *lost + "); making a new capturer";
  return std::nullopt;
}

void VideoWiring::start(std::function<std::unique_ptr<capture::Capturer>()> make_capturer,
                        std::function<void()> failed) {
  auto first = make_capturer();
  if (picture_) picture_(first->origin(), first->size(), std::chrono::steady_clock::now());
  pipeline_ = std::make_unique<stream::VideoPipeline>(
      std::move(first), std::move(make_capturer), pipeline_settings(config_), log_,
      [this](std::shared_ptr<encode::EncodedFrame> f) {
        asio::post(io_, [this, f = std::move(f)] {
          f->stamps.published = std::chrono::steady_clock::now();
          stats_[size_t(std::clamp(f->rung, 0, stream::kMaxRungs - 1))].add(*f, f->stamps.published);
          metrics_.add(*f, f->stamps.published);
          if (picture_) picture_(f->origin, f->captured, f->captured_at);
          hub_.publish(f);
        });
      },
      [this, failed = std::move(failed)](const std::string&) { asio::post(io_, failed); }, stream::VideoPipeline::EncoderFactory{},
      [this](int rungs, int work_pct) {
        asio::post(io_, [this, rungs, work_pct] {
          ladder_work_pct_ = work_pct;
          hub_.set_rung_budget(rungs);
        });
      });
  pipeline_->set_max_fps(hub_.max_fps());
  pipeline_->set_motion(hub_.motion());
}

void VideoWiring::stop() {
  pipeline_.reset();
  key_timer_.reset();  // before the loop goes: it belongs to the loop
}

}  // namespace voxl::app
