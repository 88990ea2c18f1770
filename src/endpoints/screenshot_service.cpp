#include "endpoints/screenshot_service.h"

#include "capture/frame_pool.h"

#include <cstring>
#include "endpoints/png_encoder.h"

namespace voxl::endpoints {

namespace {

using Clock = std::chrono::steady_clock;

uint32_t micros_since(Clock::time_point t) {
  return uint32_t(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t).count());
}

}  // namespace

ScreenshotService::ScreenshotService(MakeCapturer make, Logger log)
    : make_(std::move(make)), log_(std::move(log)) {}

ScreenshotService::~ScreenshotService() = default;

bool ScreenshotService::submit(ShotRequest request, Done done) {
  return jobs_.submit({std::move(request), std::move(done)});
}

void ScreenshotService::serve(Job& job) {
  // Nothing may escape the worker: a fault answers this request with
  // 500, and the next one starts from a fresh capturer.
  Screenshot shot;
  try {
    shot = take(job.request);
  } catch (const std::exception& e) {
    shot = failed(e.what());
  } catch (...) {
    shot = failed("an unknown exception");
  }
  try {
    job.done(std::move(shot));
  } catch (const std::exception& e) {
    log_->error("screenshot: cannot hand over the answer: {}", e.what());
  } catch (...) {
    log_->error("screenshot: cannot hand over the answer");
  }
}

Screenshot ScreenshotService::failed(const std::string& why) {
  log_->error("screenshot failed: {}", why);
  capturer_.reset();
  Screenshot s;
  s.status = 500;
  s.error = "the screenshot failed: " + why;
  return s;
}

Screenshot ScreenshotService::take(const ShotRequest& request) {
  const std::optional<Rect>& region = request.region;
  Screenshot s;
  try {
    if (!capturer_) capturer_ = make_();
  } catch (const std::exception& e) {
    s.status = 503;
    s.error = std::string("cannot capture the screen: ") + e.what();
    return s;
  }
  // Take the platform's news first (X11: a resize of the screen or the
  // window since the last shot), so the size below is the current one.
  capturer_->wait_for_change(std::chrono::milliseconds(0));
  const Size screen = capturer_->size();
  const Rect area = region.value_or(Rect::from_size(screen));
  if (!Rect::from_size(screen).contains(area)) {
    s.status = 400;
    s.parameter = "region";
    s.error = "must lie on the " + std::to_string(screen.width) + "x" + std::to_string(screen.height) + " screen";
    return s;
  }
  // Only the area asked for is read; the rest of the buffer is not looked at.
  capturer_->invalidate(area);
  const auto t0 = Clock::now();
  capture::CaptureResult r = capturer_->capture(pool_, std::chrono::milliseconds(0));
  if (r.status != capture::CaptureStatus::kOk || !r.frame) {
    if (r.status == capture::CaptureStatus::kReinit || r.status == capture::CaptureStatus::kPermanent)
      capturer_.reset();  // next time, from scratch
    s.status = 503;
    s.error = "capture failed: " + (r.error.empty() ? std::string(capture::to_string(r.status)) : r.error);
    return s;
  }
  s.grab_us = micros_since(t0);
  const capture::Frame& f = *r.frame;
  // The screen may just have changed size: without a region, all of it.
  const Rect crop = region ? area.intersect(Rect::from_size(f.size())) : Rect::from_size(f.size());
  const auto t1 = Clock::now();
  std::string why;
  const uint8_t* pixels = f.row(crop.y) + ptrdiff_t(crop.x) * capture::kBytesPerPixel;
  int stride = f.stride();
  s.scaling = Scaling::fit(crop.size(), request.scale);
  if (request.cursor) {
    // The frame buffer is the capturer's: the pointer goes on a copy.
    const size_t row = size_t(crop.width) * capture::kBytesPerPixel;
    drawn_.resize(row * size_t(crop.height));
    for (int y = 0; y < crop.height; ++y)
      std::memcpy(drawn_.data() + row * size_t(y), pixels + ptrdiff_t(y) * stride, row);
    pixels = drawn_.data();
    stride = int(row);
    draw_cursor(drawn_.data(), stride, crop.size(), *request.cursor,
                {request.pointer.x - crop.x, request.pointer.y - crop.y});
  }
  if (!s.scaling.identity()) {
    const Size to = s.scaling.scaled();
    scaled_.resize(size_t(to.width) * capture::kBytesPerPixel * size_t(to.height));
    if (!scale_bgra(pixels, stride, crop.size(), scaled_.data(), to.width * capture::kBytesPerPixel, to)) {
      s.status = 500;
      s.error = "the screenshot could not be scaled";
      return s;
    }
    pixels = scaled_.data();
    stride = to.width * capture::kBytesPerPixel;
  }
  const Size shown = s.scaling.identity() ? crop.size() : s.scaling.scaled();
  s.png = encode_png(pixels, stride, shown, why);
  s.encode_us = micros_since(t1);
  s.size = shown;
  s.origin = f.origin;
  s.area = f.size();
  s.captured_at = f.captured_at;
  if (s.png.empty()) {
    s.status = 500;
    s.error = why;
  }
  return s;
}

}  // namespace voxl::endpoints
