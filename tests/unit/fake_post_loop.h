// A loop for tests of what posts to the loop from another thread (the
// sign-ins' checker): what is posted waits here until the test runs it.
// Threads: post() from any thread; run_one() on the test's.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace voxl::net::testing {

// The loop: what the checker posts waits here until the test runs it.
class FakeLoop {
 public:
  std::function<void(std::function<void()>)> post() {
    return [this](std::function<void()> f) {
      {
        std::lock_guard lock(mu_);
        posted_.push_back(std::move(f));
      }
      cv_.notify_all();
    };
  }
  // Runs the next posted function; false when none came within a minute.
  bool run_one() {
    std::function<void()> f;
    {
      std::unique_lock lock(mu_);
      if (!cv_.wait_for(lock, std::chrono::seconds(60), [this] { return !posted_.empty(); })) return false;
      f = std::move(posted_.front());
      posted_.pop_front();
    }
    f();
    return true;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> posted_;
};

}  // namespace voxl::net::testing
