#include "encode/color_converter.h"

#include <algorithm>

#include <libyuv/convert.h>

#include "base/region.h"
#include "encode/yuv444_rows.h"

namespace voxl::encode {

namespace {

// Work is handed out in horizontal bands of this many rows: big enough to
// amortise the hand-off, small enough to balance a few threads.
constexpr int kBandRows = 64;

void convert_band(const uint8_t* src, int src_stride, const Rect& r, I420Image& out) {
  const uint8_t* s = src + ptrdiff_t(r.y) * src_stride + ptrdiff_t(r.x) * capture::kBytesPerPixel;
  const int step = out.chroma_step();
  uint8_t* y = out.y() + ptrdiff_t(r.y) * out.stride_y() + r.x;
  uint8_t* u = out.u() + ptrdiff_t(r.y / step) * out.stride_uv() + r.x / step;
  uint8_t* v = out.v() + ptrdiff_t(r.y / step) * out.stride_uv() + r.x / step;
  if (out.chroma() == ChromaFormat::k444) {
    bgrx_to_yuv444(s, src_stride, y, out.stride_y(), u, v, out.stride_uv(), r.width, r.height, out.range());
    return;
  }
  // libyuv's "ARGB" is B, G, R, A in memory: exactly the frame's BGRX.
  libyuv::ARGBToI420(s, src_stride, y, out.stride_y(), u, out.stride_uv(), v, out.stride_uv(),
                     r.width, r.height);
}

}  // namespace

ColorConverter::ColorConverter(int threads, SpawnWorker spawn) {
  // The calling thread works too, so N threads means N-1 helpers.
  const int helpers = std::max(1, threads) - 1;
  workers_.reserve(size_t(helpers));
  try {
    for (int i = 0; i < helpers; ++i) {
      std::function<void()> body = [this] { worker_main(); };
      workers_.push_back(spawn ? spawn(std::move(body)) : std::thread(std::move(body)));
    }
  } catch (...) {
    // The workers already running are stopped and joined: a joinable
    // std::thread destroyed with the vector would terminate the process.
    stop_workers();
    throw;
  }
}

ColorConverter::~ColorConverter() { stop_workers(); }

void ColorConverter::stop_workers() noexcept {
  {
    std::lock_guard lock(mu_);
    quit_ = true;
  }
  start_cv_.notify_all();
  for (auto& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
}

std::vector<Rect> ColorConverter::bands(std::span<const Rect> rects, Size size) {
  // 4:2:0 chroma covers 2x2 pixels: each rect is widened to even
  // coordinates (4:4:4 would not need it; it costs at most a pixel on each
  // side), then the union is clipped to the (even) encoded size. The
  // region's rectangles are disjoint, and so are the bands cut from them:
  // damage and what a rung owed may overlap, but no pixel is handed out
  // twice, so no two threads write the same bytes.
  Region region = Region(rects).aligned_out(2);
  region.clip(Rect::from_size(size));
  std::vector<Rect> bands;
  for (const Rect& r : region.rects())
    for (int y = r.y; y < r.bottom(); y += kBandRows)
      bands.push_back({r.x, y, r.width, std::min(kBandRows, r.bottom() - y)});
  return bands;
}

void ColorConverter::convert(const capture::Frame& frame, std::span<const Rect> rects,
                             I420Image& out) {
  std::vector<Band> bands;
  for (const Rect& r : ColorConverter::bands(rects, out.size())) bands.push_back({frame.data(), frame.stride(), r});
  if (bands.empty()) return;
  if (workers_.empty() || bands.size() == 1) {
    for (const Band& b : bands) convert_band(b.src, b.src_stride, b.r, out);
    return;
  }
  {
    std::lock_guard lock(mu_);
    bands_ = std::move(bands);
    target_ = &out;
    next_band_ = 0;
    busy_ = int(workers_.size());
    ++generation_;
  }
  start_cv_.notify_all();
  run_bands(out);
  std::unique_lock lock(mu_);
  done_cv_.wait(lock, [this] { return busy_ == 0; });
}

void ColorConverter::run_bands(I420Image& out) {
  for (;;) {
    Band b;
    {
      std::lock_guard lock(mu_);
      if (next_band_ >= bands_.size()) return;
      b = bands_[next_band_++];
    }
    convert_band(b.src, b.src_stride, b.r, out);
  }
}

void ColorConverter::worker_main() {
  uint64_t seen = 0;
  for (;;) {
    I420Image* out;
    {
      std::unique_lock lock(mu_);
      start_cv_.wait(lock, [&] { return quit_ || generation_ != seen; });
      if (quit_) return;
      seen = generation_;
      out = target_;
    }
    run_bands(*out);
    {
      std::lock_guard lock(mu_);
      --busy_;
    }
    done_cv_.notify_one();
  }
}

}  // namespace voxl::encode
