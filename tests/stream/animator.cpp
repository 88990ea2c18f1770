#include "animator.h"

#include <algorithm>

#include "x11_test_support.h"

namespace voxl::testing {

Animator::Animator(const std::string& display, const Rect& area, int hz)
    : thread_([this, display, area, hz] { run(display, area, hz); }) {}

Animator::~Animator() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Animator::run(std::string display, Rect area, int hz) {
  Painter painter(display);
  static constexpr uint32_t kColours[] = {0xc03020, 0x20c040, 0x3040d0, 0xd0c020};
  const auto period = std::chrono::microseconds(1000000 / (hz > 0 ? hz : 60));
  auto next = std::chrono::steady_clock::now();
  for (uint32_t i = 0;; ++i) {
    // A band that moves down the area in the next colour and a small patch
    // of noise: every change is new content, none of it a full screen.
    const int band_h = std::max(1, area.height / 8);
    const Rect band{area.x, area.y + int(i % 8) * band_h, area.width, band_h};
    painter.fill(painter.root(), band, kColours[i % 4]);
    const Rect patch{area.x + int(i * 37 % uint32_t(std::max(1, area.width - 64))), area.y, 64, 48};
    painter.paint_noise(patch, i + 1);
    changes_.fetch_add(1);
    next += period;
    std::unique_lock lock(mu_);
    if (wake_.wait_until(lock, next, [this] { return stop_; })) return;
    // Behind by more than a period (a loaded machine): do not try to catch up.
    if (std::chrono::steady_clock::now() > next + period) next = std::chrono::steady_clock::now();
  }
}

}  // namespace voxl::testing
