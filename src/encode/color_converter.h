// BGRX frame -> YUV (4:2:0 through libyuv, or 4:4:4, as the target image
// says), for the damaged blocks only, split over a few worker threads. The
// image keeps the rest of the picture from earlier frames.
//
// Threads: convert() is called on the video thread and returns when all
// workers are done; the workers are private to the converter.
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
  explicit ColorConverter(int threads);
  ~ColorConverter();
  ColorConverter(const ColorConverter&) = delete;
  ColorConverter& operator=(const ColorConverter&) = delete;

  // Converts `rects` (frame coordinates; aligned to 2 pixels except at the
  // frame's right and bottom edges) of `frame` into `out`, whose size must be
  // encodable_size(frame.size()).
  void convert(const capture::Frame& frame, std::span<const Rect> rects, I420Image& out);

 private:
  struct Band {
    const uint8_t* src;
    int src_stride;
    Rect r;
  };
  void run_bands(I420Image& out);
  void worker_main(int index);

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
