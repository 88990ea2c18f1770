// Keeps a display's picture changing at about `hz` changes a second from a
// thread of its own (with its own X connection), so a test can check that
// a viewer still receives frames at a healthy rate: every tick repaints a
// band in the next colour and a patch of fresh noise, content the encoder
// has to send.
//
// Threads: construct and destroy on one thread; the painting runs on the
// animator's own. changes() may be read from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "base/geometry.h"

namespace voxl::testing {

class Animator {
 public:
  // Starts painting inside `area` of the root window of `display`.
  Animator(const std::string& display, const Rect& area, int hz = 60);
  ~Animator();  // stops and joins
  Animator(const Animator&) = delete;
  Animator& operator=(const Animator&) = delete;

  // Changes painted so far.
  uint64_t changes() const { return changes_.load(); }

 private:
  void run(std::string display, Rect area, int hz);

  std::atomic<uint64_t> changes_{0};
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace voxl::testing
