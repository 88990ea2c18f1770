#include "endpoints/a11y_service.h"

#include <exception>

namespace voxl::endpoints {

A11yService::A11yService(Make make, Logger log) : make_(std::move(make)), log_(std::move(log)) {}

A11yService::~A11yService() { *alive_ = false; }

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
