// BGRX frame -> YUV (4:2:0 through libyuv, or 4:4:4, as the target image
// says), for the damaged rectangles only, split over a few worker threads in
// disjoint bands (no two threads write the same bytes). The image keeps the
// rest of the picture from earlier frames.
//
// Threads: owned and called by one thread (the video thread); convert()
// returns when all workers are done; the workers are private to the
// converter, idle (blocked) between calls, joined by the destructor.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "base/geometry.h"
#include "capture/frame.h"
#include "encode/i420_image.h"

namespace voxl::encode {

class ColorConverter {
 public:
  // Starts one worker running `body`; throws (std::system_error, as
  // std::thread's constructor does) when the system refuses a thread.
  using SpawnWorker = std::function<std::thread(std::function<void()> body)>;

  // `threads` in all, the calling thread included (at least 1); `spawn`
  // starts the other threads-1 (empty: std::thread). When a worker cannot
  // be started, those already running are stopped and joined, and the
  // spawn error is thrown.
  explicit ColorConverter(int threads, SpawnWorker spawn = {});
  ~ColorConverter();
  ColorConverter(const ColorConverter&) = delete;
  ColorConverter& operator=(const ColorConverter&) = delete;

  // Converts the union of `rects` (frame coordinates; they may overlap,
  // e.g. a capture's damage and what a rung still owed), widened to whole
  // 2x2 chroma samples, of `frame` into `out`, whose size must be
  // encodable_size(frame.size()). The part outside `out` is left out.
  void convert(const capture::Frame& frame, std::span<const Rect> rects, I420Image& out);

  // The pieces convert() hands to the threads for `rects` on an image of
  // `size`: disjoint, each at most a few dozen rows tall, even in every
  // coordinate, together covering exactly what convert() converts.
  [[nodiscard]] static std::vector<Rect> bands(std::span<const Rect> rects, Size size);

 private:
  struct Band {
    const uint8_t* src;
    int src_stride;
    Rect r;
  };
  void run_bands(I420Image& out);
  void worker_main();
  void stop_workers() noexcept;

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable start_cv_, done_cv_;
  std::vector<Band> bands_;
  I420Image* target_ = nullptr;
  size_t next_band_ = 0;
  int busy_ = 0;
  uint64_t generation_ = 0;
  bool quit_ = false;
};

}  // namespace voxl::encode
