// Fresh noise over an area of the screen at a steady pace, from a thread
// and an X connection of its own: content an encoder would spend far more
// than any slow link's rate on.
//
// Threads: constructed, stopped and destroyed on the test's thread.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "base/geometry.h"
#include "x11_test_support.h"

namespace voxl::testing {

// Paints fresh noise over the whole screen every `every` from a thread and
// its own X connection, until stopped: content the encoder would spend far
// more than the link's rate on.
class NoisePainter {
 public:
  NoisePainter(const std::string& display, Rect area, std::chrono::milliseconds every)
      : painter_(display), area_(area), every_(every), thread_([this] { run(); }) {}
  ~NoisePainter() { stop(); }
  // Returns once the last picture is on the screen.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
  }
  int painted() const { return painted_; }  // after stop()

 private:
  void run() {
    auto next = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    while (!stop_) {
      lock.unlock();
      painter_.paint_noise(area_, uint32_t(++painted_) * 0x9E3779B9u);
      lock.lock();
      // Paced, not catching up: a loaded machine paints less often.
      next = std::max(next + every_, std::chrono::steady_clock::now());
      wake_.wait_until(lock, next, [this] { return stop_; });
    }
  }

  Painter painter_;
  Rect area_;
  std::chrono::milliseconds every_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  int painted_ = 0;
  std::thread thread_;
};

}  // namespace voxl::testing
