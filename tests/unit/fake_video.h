// Fakes of the video thread's two ends for unit tests of the pipeline's
// stages: a capturer whose screen changes when the test says so, and an
// encoder that codes a few bytes per frame. Pure logic over no display and
// no x264.
//
// Threads: FakeCapturer::change() and wake() from any thread, the rest on
// the thread that captures; FakeEncoder on one thread.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "capture/capturer.h"
#include "encode/video_encoder.h"
#include "encode/x264_encoder.h"

namespace voxl::testing {

class FakeCapturer final : public capture::Capturer {
 public:
  explicit FakeCapturer(Size size) : size_(size), pixels_(size_t(size.width) * size_t(size.height) * 4, 0x40) {
    pending_.push_back(Rect::from_size(size));
  }

  // The screen changes in `r` (the next capture reports it).
  void change(const Rect& r) {
    {
      std::lock_guard lock(mu_);
      pending_.push_back(r);
    }
    cv_.notify_all();
  }

  capture::CaptureResult capture(capture::FramePool&, std::chrono::milliseconds timeout) override {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [this] { return woken_ || !pending_.empty(); });
    woken_ = false;
    capture::CaptureResult r;
    if (pending_.empty()) return r;
    auto frame = std::make_shared<capture::Frame>(pixels_.data(), size_, size_.width * 4);
    frame->damage_rects = std::move(pending_);
    pending_.clear();
    frame->seq = ++seq_;
    frame->captured_at = std::chrono::steady_clock::now();
    r.status = capture::CaptureStatus::kOk;
    r.frame = std::move(frame);
    return r;
  }
  void invalidate(const Rect& r) override { change(r); }
  bool wait_for_change(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [this] { return woken_ || !pending_.empty(); });
    woken_ = false;
    return !pending_.empty();
  }
  void wake() override {
    {
      std::lock_guard lock(mu_);
      woken_ = true;
    }
    cv_.notify_all();
  }
  Size size() const override { return size_; }
  Point origin() const override { return {}; }
  std::string describe() const override { return "a fake screen"; }

 private:
  Size size_;
  std::vector<uint8_t> pixels_;  // the pixels stay put; only the damage moves
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Rect> pending_;
  bool woken_ = false;
  uint64_t seq_ = 0;
};

class FakeEncoder final : public encode::VideoEncoder {
 public:
  FakeEncoder(Size size, const encode::EncoderSettings& s) : size_(size), chroma_(s.chroma), kbps_(s.max_kbps) {}

  Size size() const override { return size_; }
  encode::ChromaFormat chroma() const override { return chroma_; }
  int threads() const override { return 1; }
  bool encode(const encode::I420Image&, int64_t, bool force_key, std::span<const Rect> damage,
              std::vector<encode::CodedPart>& out) override {
    out.clear();
    if (damage.empty() && !force_key && !first_) return false;  // a paintover: sharp already
    encode::CodedPart p;
    p.key = force_key || first_;
    p.band = Rect::from_size(size_);
    p.data.assign(p.key ? 64 : 16, 0);
    first_ = false;
    out.push_back(std::move(p));
    return true;
  }
  void set_max_kbps(int kbps) override { kbps_ = kbps; }
  void set_crf(int) override {}
  void set_frame_rate(int) override {}
  void set_gap_budget(GapBudget) override {}
  double rate_factor() const override { return 20; }
  bool last_frame_starved() const override { return false; }

 private:
  Size size_;
  encode::ChromaFormat chroma_;
  int kbps_;
  bool first_ = true;
};

}  // namespace voxl::testing
