#include "files/disk_worker.h"

namespace voxl::files {

DiskWorker::DiskWorker(size_t max_queued) : max_queued_(max_queued), thread_([this] { run(); }) {}

DiskWorker::~DiskWorker() {
  std::deque<std::function<void()>> dropped;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped.swap(jobs_);
  }
  wake_.notify_all();
  thread_.join();
}

bool DiskWorker::submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || jobs_.size() >= max_queued_) return false;
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

void DiskWorker::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    // A job that throws is a fault of its own; the worker carries on.
    try {
      job();
    } catch (...) {
    }
  }
}

}  // namespace voxl::files
