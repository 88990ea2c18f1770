// A thread of its own that serves jobs one at a time from a bounded queue:
// a job past `max_queued` is refused, not queued. The owner's serve
// function runs on that thread; it must not throw (a worker that can fail
// answers its job with the failure).
//
// Threads: submit() from any thread; `serve` on the job thread.
// Destruction finishes the job being served and drops the rest; declare the
// JobThread after everything `serve` uses, so it is joined first.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace voxl {

template <class Job>
class JobThread {
 public:
  JobThread(size_t max_queued, std::function<void(Job&)> serve)
      : max_queued_(max_queued), serve_(std::move(serve)), thread_([this] { run(); }) {}
  ~JobThread() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  JobThread(const JobThread&) = delete;
  JobThread& operator=(const JobThread&) = delete;

  // False when the queue is full.
  bool submit(Job job) {
    {
      std::lock_guard lock(mu_);
      if (jobs_.size() >= max_queued_) return false;
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
    return true;
  }

 private:
  void run() {
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
        if (stop_) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      serve_(job);
    }
  }

  const size_t max_queued_;
  const std::function<void(Job&)> serve_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> jobs_;
  bool stop_ = false;
  std::thread thread_;  // last: started once the rest is ready
};

}  // namespace voxl
