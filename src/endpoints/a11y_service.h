// The accessibility tree's worker: questions to the applications (which
// may be slow, hung or gone) run on a thread of its own with their
// deadlines, never on the loop. The platform's reader is made on first use
// and kept; where it cannot be made, every job is told why.
//
// Threads: submit() from one thread (the loop); a job's functions run on
// the worker thread: post results back. Jobs beyond kMaxQueued are
// refused, not queued.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "base/job_thread.h"
#include "base/logging.h"
#include "platform/accessibility.h"

namespace voxl::endpoints {

class A11yService {
 public:
  // Makes the reader, or null with `why`. Called once, on the worker.
  using Make = std::function<std::unique_ptr<platform::Accessibility>(std::string& why)>;
  struct Job {
    // With the reader; may throw (answered by `failed` with 503).
    std::function<void(platform::Accessibility&)> run;
    // There is no reader, or `run` threw: an HTTP status and the reason.
    std::function<void(int status, const std::string& error)> failed;
  };
  static constexpr size_t kMaxQueued = 8;

  A11yService(Make make, Logger log);
  ~A11yService();  // finishes the job in progress (bounded by its deadline), drops the rest
  A11yService(const A11yService&) = delete;
  A11yService& operator=(const A11yService&) = delete;

  // False when too many are queued.
  bool submit(Job job) { return jobs_.submit(std::move(job)); }
  // False once the service is being destroyed (on the loop): work a job
  // posted to the loop checks it before using what the service serves.
  std::shared_ptr<const bool> alive() const { return alive_; }

 private:
  void serve(Job& job);

  Make make_;
  Logger log_;
  // Worker thread only.
  std::unique_ptr<platform::Accessibility> reader_;
  bool made_ = false;
  std::string why_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  JobThread<Job> jobs_{kMaxQueued, [this](Job& job) { serve(job); }};  // last: joined first
};

}  // namespace voxl::endpoints
