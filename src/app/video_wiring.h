// The video side: the hub every viewer and recorder joins, the stream's
// figures (/stats) and the video pipeline the hub switches on and off.
// Encoded frames are posted from the pipeline thread to the loop, counted
// in the figures there and published to the hub.
//
// Threads: the loop thread, except the pipeline's own thread (started by
// start(), joined by stop()). Lifetime: made after the loop; the hub and
// the figures are made before the server and the agent services and outlive
// the server's sessions (which leave the hub as they end); the pipeline
// starts once the server is up and stops first after the loop returns,
// before anything it posts to goes.
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "app/config.h"
#include "base/logging.h"
#include "base/metrics_text.h"
#include "capture/capturer.h"
#include "stream/video/encode_metrics.h"
#include "stream/fanout/hub.h"
#include "stream/fanout/stream_figures.h"
#include "stream/fanout/stream_stats.h"

namespace boost::asio {
class io_context;
}
namespace voxl::stream {
class VideoPipeline;
}

namespace voxl::app {

class VideoWiring {
 public:
  VideoWiring(const Config& config, boost::asio::io_context& io, const Logger& log);
  ~VideoWiring();  // stop()
  VideoWiring(const VideoWiring&) = delete;
  VideoWiring& operator=(const VideoWiring&) = delete;

  stream::Hub& hub() { return hub_; }
  // Rung 0's figures over the last second (the stream a lone viewer or a
  // recording gets) and the ladder's: each rung that is coded or has
  // consumers, and how many rungs the machine affords.
  stream::StreamFigures figures() const;
  // The encoders' counters and stage times since start, for /metrics.
  void write_metrics(MetricsText& out) const;
  // Why no picture can be served now (not started, or capture lost and
  // being remade), or nullopt: for /readyz.
  std::optional<std::string> not_ready() const;

  // Where the picture lies on the desktop (capture::Frame::origin) and the
  // captured area's size: told on the loop for the first capturer at
  // start() and then with every frame, before the hub sees it. Set before
  // start().
  using PictureListener =
      std::function<void(Point origin, Size area, std::chrono::steady_clock::time_point captured_at)>;
  void set_picture_listener(PictureListener listener) { picture_ = std::move(listener); }

  // Starts the pipeline thread on a capturer from `make_capturer` (called
  // here first, so a desktop that cannot be captured fails the start with
  // std::runtime_error, and again on the video thread after a kReinit).
  // `failed` runs on the loop when the pipeline gives up for good.
  void start(std::function<std::unique_ptr<capture::Capturer>()> make_capturer, std::function<void()> failed);
  // Stops and joins the pipeline thread and drops the hub's key frame
  // timer; the hub's controls then do nothing. Before the loop is destroyed.
  void stop();

 private:
  const Config& config_;
  boost::asio::io_context& io_;
  Logger log_;
  std::array<stream::StreamStats, stream::kMaxRungs> stats_;  // one per rung of the ladder
  stream::EncodeMetrics metrics_;
  int ladder_work_pct_ = 0;  // as the pipeline last reported it
  PictureListener picture_;
  struct KeyTimer;  // an asio timer: the hub's key frame requests put off
  std::unique_ptr<KeyTimer> key_timer_;  // made before the hub; gone at stop(), before the loop
  stream::Hub hub_;
  std::unique_ptr<stream::VideoPipeline> pipeline_;
};

}  // namespace voxl::app
