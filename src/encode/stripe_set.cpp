#include "encode/stripe_set.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>

#include "encode/stripe_layout.h"

namespace voxl::encode {

StripeSet::StripeSet(Size size, int stripes, const EncoderSettings& settings, Logger log)
    : size_(size),
      chroma_(settings.chroma),
      bands_(stripe_bands(size, stripes)),
      max_kbps_(settings.max_kbps),
      crf_(settings.crf),
      log_(std::move(log)) {
  if (bands_.empty()) throw std::invalid_argument("StripeSet needs a non-empty picture");
  state_.resize(bands_.size());
  EncoderSettings band = settings;
  band.threads = 1;
  band.max_kbps = std::max(kMinStripeKbps, settings.max_kbps / int(bands_.size()));
  for (size_t i = 0; i < bands_.size(); ++i)
    state_[i].encoder = std::make_unique<X264Encoder>(bands_[i].size(), band, log_);
  const int n = int(bands_.size());
  parallel_ = settings.threads > 0 ? std::min(settings.threads, n) : n;
  workers_.reserve(size_t(n - 1));
  try {
    for (int w = 0; w < n - 1; ++w) workers_.emplace_back([this, w] { work(w); });
  } catch (...) {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
    throw;
  }
}

StripeSet::~StripeSet() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

bool StripeSet::set_threads(int threads) {
  std::lock_guard lock(mu_);  // between frames: no job runs
  parallel_ = std::clamp(threads, 1, int(bands_.size()));
  return true;
}

void StripeSet::set_crf(int crf) {
  crf_ = crf;
  for (auto& b : state_) b.encoder->set_crf(crf);
}

void StripeSet::set_frame_rate(int fps) {
  for (auto& b : state_) b.encoder->set_frame_rate(fps);
}

void StripeSet::set_gap_budget(GapBudget budget) {
  for (auto& b : state_) b.encoder->set_gap_budget(budget);
}

void StripeSet::code(size_t i) {
  Band& b = state_[i];
  const auto t0 = std::chrono::steady_clock::now();
  CodedPart& part = b.part;
  part.data.clear();
  part.stripe = int(i);
  part.band = bands_[i];
  b.coded = b.encoder->encode(image_->band(bands_[i].y, bands_[i].height), pts_us_, force_key_, part.data, part.key);
  part.encode_us = uint32_t(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count());
  part.rate_factor = b.encoder->rate_factor();
  part.starved = b.encoder->last_frame_starved();
}

// Takes jobs while there are any; `lock` holds mu_ on entry and exit.
static void take_jobs(std::unique_lock<std::mutex>& lock, std::vector<size_t>& jobs, size_t& next,
                      size_t& unfinished, std::exception_ptr& failure, std::condition_variable& done,
                      const std::function<void(size_t)>& code) {
  while (next < jobs.size()) {
    const size_t job = jobs[next++];
    lock.unlock();
    std::exception_ptr error;
    try {
      code(job);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && !failure) failure = error;
    if (--unfinished == 0) done.notify_all();
  }
}

void StripeSet::work(int worker) {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || (worker < parallel_ - 1 && next_job_ < jobs_.size()); });
    if (stop_) return;
    take_jobs(lock, jobs_, next_job_, unfinished_, failure_, done_, [this](size_t i) { code(i); });
  }
}

void StripeSet::run_jobs(std::vector<size_t> jobs, const I420Image& image, int64_t pts_us, bool force_key) {
  std::unique_lock lock(mu_);
  // The frame and its jobs are published together: a worker that starts
  // late, or wakes spuriously, sees either no jobs or all of this frame's
  // bookkeeping, never jobs beside the previous frame's counters.
  image_ = &image;
  pts_us_ = pts_us;
  force_key_ = force_key;
  jobs_ = std::move(jobs);
  failure_ = nullptr;
  next_job_ = 0;
  unfinished_ = jobs_.size();
  if (parallel_ > 1 && jobs_.size() > 1) wake_.notify_all();
  take_jobs(lock, jobs_, next_job_, unfinished_, failure_, done_, [this](size_t i) { code(i); });
  done_.wait(lock, [this] { return unfinished_ == 0; });
  jobs_.clear();
  next_job_ = 0;
  image_ = nullptr;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

bool StripeSet::encode(const I420Image& image, int64_t pts_us, bool force_key, std::span<const Rect> damage,
                       std::vector<CodedPart>& out) {
  out.clear();
  if (image.size() != size_ || image.chroma() != chroma_) {
    log_->error("stripes: a picture of another size or format than the encoder's");
    return false;
  }
  const size_t n = bands_.size();
  // A stream that never coded must start with a key frame, and they all
  // start together.
  const bool all = force_key || std::any_of(state_.begin(), state_.end(), [](const Band& b) { return b.sharp_crf == 0; });
  std::vector<bool> coded(n, all);
  if (!all && !damage.empty()) {
    for (int i : damaged_bands(bands_, std::vector<Rect>(damage.begin(), damage.end()))) coded[size_t(i)] = true;
  } else if (!all) {
    for (size_t i = 0; i < n; ++i) coded[i] = state_[i].sharp_crf > crf_ || !state_[i].settled;
  }
  std::vector<double> demand(n);
  for (size_t i = 0; i < n; ++i) demand[i] = state_[i].demand;
  const std::vector<int> kbps = stripe_kbps(max_kbps_, demand, coded);
  // No job runs between frames, so the bands' encoders are set here.
  std::vector<size_t> jobs;
  for (size_t i = 0; i < n; ++i) {
    state_[i].coded = false;
    if (!coded[i]) continue;
    state_[i].encoder->set_max_kbps(kbps[i]);
    jobs.push_back(i);
  }
  if (jobs.empty()) return false;
  run_jobs(std::move(jobs), image, pts_us, all);
  // The picture's rate factor, as x264's own is for one picture: the
  // average over what was coded, here weighted by each band's area (the
  // coarsest band alone would make the frame rate governor trade frames
  // for one small band's sake).
  double weighted = 0, area = 0;
  starved_ = false;
  const bool paintover = damage.empty() && !all;
  for (size_t i = 0; i < n; ++i) {
    Band& b = state_[i];
    if (!b.coded) continue;
    b.demand = b.demand == 0 ? double(b.part.data.size())
                             : (1 - kDemandWeight) * b.demand + kDemandWeight * double(b.part.data.size());
    // A frame of a change is as sharp as the CRF it was coded at, and may
    // be sharpened by a paintover at a lower one; a paintover that came
    // out small (and not starved) left nothing to sharpen.
    b.sharp_crf = crf_;
    b.settled = paintover && b.part.data.size() < kSettledBytes && !b.part.starved;
    const double band_area = double(bands_[i].width) * double(bands_[i].height);
    weighted += b.part.rate_factor * band_area;
    area += band_area;
    starved_ = starved_ || b.part.starved;
    out.push_back(std::move(b.part));
    b.part = CodedPart{};
  }
  rate_factor_ = area > 0 ? weighted / area : 0;
  return !out.empty();
}

}  // namespace voxl::encode
