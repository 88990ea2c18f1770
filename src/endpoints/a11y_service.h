// The accessibility tree's worker: questions to the applications (which
// may be slow, hung or gone) run on a thread of its own with their
// deadlines, never on the loop. The platform's reader is made on first use
// and kept; where it cannot be made, every job is told why.
//
// Threads: submit() from one thread (the loop); a job's functions run on
// the worker thread: post results back. Jobs beyond kMaxQueued are
// refused, not queued.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

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
  bool submit(Job job);
  // False once the service is being destroyed (on the loop): work a job
  // posted to the loop checks it before using what the service serves.
  std::shared_ptr<const bool> alive() const { return alive_; }

 private:
  void run();
  void serve(Job& job);

  Make make_;
  Logger log_;
  // Worker thread only.
  std::unique_ptr<platform::Accessibility> reader_;
  bool made_ = false;
  std::string why_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> jobs_;
  bool stop_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::thread thread_;
};

}  // namespace voxl::endpoints
