#include "endpoints/a11y_service.h"

#include <exception>

namespace voxl::endpoints {

A11yService::A11yService(Make make, Logger log) : make_(std::move(make)), log_(std::move(log)) {
  thread_ = std::thread([this] { run(); });
}

A11yService::~A11yService() {
  *alive_ = false;
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

bool A11yService::submit(Job job) {
  {
    std::lock_guard lock(mu_);
    if (jobs_.size() >= kMaxQueued) return false;
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
  return true;
}

void A11yService::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
      if (stop_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    serve(job);
  }
}

void A11yService::serve(Job& job) {
  // Nothing may escape the worker: a fault answers this request.
  std::string error;
  try {
    if (!made_) {
      made_ = true;
      reader_ = make_(why_);
      if (!reader_) log_->info("/a11y: {}", why_);
    }
    if (!reader_) return job.failed(503, why_);
    job.run(*reader_);
    return;
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "an unknown exception";
  }
  log_->warn("/a11y: {}", error);
  try {
    job.failed(503, error);
  } catch (...) {
    log_->error("/a11y: cannot hand over the answer");
  }
}

}  // namespace voxl::endpoints
