#include "app/daemon.h"

#include <signal.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include "capture/frame_pool.h"
#include "capture/x11/virtual_display.h"
#include "capture/x11/x11_capturer.h"

namespace voxl::app {

namespace {

using Clock = std::chrono::steady_clock;
namespace x11 = capture::x11;

// Stop flag the capture thread sleeps on between frames, so a stop request
// is seen at once rather than after the pacing delay.
class StopSignal {
 public:
  void request() {
    { std::lock_guard lock(mu_); stop_ = true; }
    cv_.notify_all();
  }
  bool requested() {
    std::lock_guard lock(mu_);
    return stop_;
  }
  // Sleeps until `t` or a stop request; true if stopping.
  bool sleep_until(Clock::time_point t) {
    std::unique_lock lock(mu_);
    return cv_.wait_until(lock, t, [this] { return stop_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
};

void capture_loop(capture::Capturer& cap, const Config& config, StopSignal& stop, const Logger& log,
                  std::atomic<int>& exit_code) {
  capture::FramePool pool(2);
  const auto interval = std::chrono::microseconds(1'000'000 / config.framerate);
  const auto stats_every = std::chrono::seconds(config.stats_seconds);
  auto next_frame = Clock::now();
  auto next_stats = Clock::now() + stats_every;
  uint64_t frames = 0, blocks = 0;
  while (!stop.requested()) {
    const auto r = cap.capture(pool, std::chrono::duration_cast<std::chrono::milliseconds>(stats_every));
    const auto now = Clock::now();
    switch (r.status) {
      case capture::CaptureStatus::kOk:
        ++frames;
        blocks += uint64_t(r.frame->damage_blocks.count());
        break;
      case capture::CaptureStatus::kNoChange:
        break;
      case capture::CaptureStatus::kTemporary:
        log->debug("capture: {}", r.error);
        break;
      case capture::CaptureStatus::kReinit:
      case capture::CaptureStatus::kPermanent:
        log->error("capture stopped: {}", r.error);
        exit_code = 1;
        kill(getpid(), SIGTERM);  // wakes the main thread's sigwait
        return;
    }
    if (now >= next_stats) {
      log->info("captured {} frames ({:.1f} fps), {} damaged 16-px blocks, size {}x{}", frames,
                double(frames) / double(config.stats_seconds), blocks, cap.size().width,
                cap.size().height);
      frames = blocks = 0;
      next_stats = now + stats_every;
    }
    if (r.status == capture::CaptureStatus::kOk || r.status == capture::CaptureStatus::kTemporary) {
      // Pace to the frame rate; damage keeps accumulating meanwhile.
      next_frame = std::max(next_frame + interval, now);
      if (stop.sleep_until(next_frame)) return;
    }
  }
}

}  // namespace

int run_daemon(const Config& config, const Logger& log) {
  // Signals are taken synchronously by this thread; block them before any
  // thread starts so none inherits a handler-less default.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

  std::unique_ptr<x11::VirtualDisplay> xvfb;
  std::string display = config.display;
  const char* env_display = std::getenv("DISPLAY");
  if (config.xvfb || (display.empty() && (!env_display || !*env_display))) {
    x11::VirtualDisplayOptions vo;
    if (config.xvfb) vo.size = *config.xvfb;
    xvfb = std::make_unique<x11::VirtualDisplay>(vo);
    display = xvfb->name();
    log->info("started a private Xvfb on {} ({}x{}); run programs in it with DISPLAY={}", display,
              vo.size.width, vo.size.height, display);
  }

  x11::X11CaptureOptions co;
  co.display = display;
  co.log = log;
  if (xvfb) co.framebuffer_shmid = xvfb->framebuffer_shmid();
  if (config.capture_region) {
    co.target = x11::X11CaptureOptions::Target::kRegion;
    co.region = *config.capture_region;
  } else if (config.capture_window) {
    co.target = x11::X11CaptureOptions::Target::kWindow;
    co.window = config.capture_window;
  }
  x11::X11Capturer capturer(co);

  StopSignal stop;
  std::atomic<int> exit_code{0};
  std::thread video([&] { capture_loop(capturer, config, stop, log, exit_code); });
  int sig = 0;
  sigwait(&sigs, &sig);
  log->info("stopping ({})", sig == SIGINT ? "SIGINT" : "SIGTERM");
  stop.request();
  capturer.wake();
  video.join();
  return exit_code;
}

}  // namespace voxl::app
