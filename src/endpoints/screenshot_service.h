// /screenshot's worker: grabs the screen and encodes it as PNG on a thread
// of its own, with a capturer of its own, created on first use and kept.
// Why not ask the video thread: it may be stopped (no viewer) or paused
// (congested viewers) and would have to wake, grab and convert around its
// own pacing; its capturer's damage bookkeeping would also be disturbed. A
// separate capturer costs one more SHM segment and one more display
// connection, and a full grab is about one memcpy of the screen.
//
// Threads: submit() from one thread (the loop); `done` runs on the worker
// thread: post it back. Jobs beyond kMaxQueued are refused, not queued.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "base/geometry.h"
#include "base/logging.h"
#include "capture/capturer.h"
#include "capture/frame_pool.h"

namespace voxl::endpoints {

struct Screenshot {
  int status = 200;  // else an HTTP error status with `error` and `parameter`
  std::string png;
  std::string error;
  std::string parameter;
  Size size;
  // Where the captured area lay on the desktop and its size when the shot
  // was taken (capture::Frame::origin, the frame's size).
  Point origin;
  Size area;
  std::chrono::steady_clock::time_point captured_at;
  uint32_t grab_us = 0;
  uint32_t encode_us = 0;
};

class ScreenshotService {
 public:
  using MakeCapturer = std::function<std::unique_ptr<capture::Capturer>()>;
  using Done = std::function<void(Screenshot)>;
  static constexpr size_t kMaxQueued = 8;

  ScreenshotService(MakeCapturer make, Logger log);
  ~ScreenshotService();  // finishes the job in progress, drops the rest
  ScreenshotService(const ScreenshotService&) = delete;
  ScreenshotService& operator=(const ScreenshotService&) = delete;

  // `region` is in the coordinates of the capturer's picture (with a
  // captured region, relative to its corner) and must lie on it. False
  // when too many are queued.
  bool submit(std::optional<Rect> region, Done done);

 private:
  struct Job {
    std::optional<Rect> region;
    Done done;
  };
  void run();
  Screenshot take(const std::optional<Rect>& region);
  Screenshot failed(const std::string& why);  // a 500 for a fault in take()

  MakeCapturer make_;
  Logger log_;
  std::unique_ptr<capture::Capturer> capturer_;  // worker thread only
  capture::FramePool pool_{1};  // one buffer, reused: no page faults per shot
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> jobs_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace voxl::endpoints
