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
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "base/job_thread.h"
#include "base/logging.h"
#include "capture/capturer.h"
#include "capture/frame_pool.h"
#include "endpoints/picture_scale.h"
#include "input/cursor_source.h"

namespace voxl::endpoints {

// What to take: a part of the picture (else all of it), shown smaller, with
// the pointer drawn in.
struct ShotRequest {
  // In the coordinates of the capturer's picture (with a captured region,
  // relative to its corner); must lie on it.
  std::optional<Rect> region;
  ScaleSpec scale;  // the PNG fits it (never larger than the part taken)
  // The pointer's shape and where its hot spot is in the picture's
  // coordinates (not the region's); drawn before scaling, as a screen
  // shows it. Null: not drawn.
  input::CursorImagePtr cursor;
  Point pointer;
};

struct Screenshot {
  int status = 200;  // else an HTTP error status with `error` and `parameter`
  std::string png;
  std::string error;
  std::string parameter;
  Size size;  // the PNG's size
  // The part of the picture taken, at the picture's resolution (the PNG
  // shows it at `size`): maps the PNG's pixels back.
  Scaling scaling;
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

  // False when too many are queued.
  bool submit(ShotRequest request, Done done);

 private:
  struct Job {
    ShotRequest request;
    Done done;
  };
  void serve(Job& job);
  Screenshot take(const ShotRequest& request);
  Screenshot failed(const std::string& why);  // a 500 for a fault in take()

  MakeCapturer make_;
  Logger log_;
  std::unique_ptr<capture::Capturer> capturer_;  // worker thread only
  capture::FramePool pool_{1};  // one buffer, reused: no page faults per shot
  // Worker thread: a copy with the pointer drawn in, and a scaled picture.
  std::vector<uint8_t> drawn_;
  std::vector<uint8_t> scaled_;
  JobThread<Job> jobs_{kMaxQueued, [this](Job& job) { serve(job); }};  // last: joined first
};

}  // namespace voxl::endpoints
