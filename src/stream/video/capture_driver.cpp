#include "stream/video/capture_driver.h"

namespace voxl::stream {

CaptureDriver::CaptureDriver(std::unique_ptr<capture::Capturer> first, Factory factory, Logger log,
                             std::chrono::microseconds coalesce, std::chrono::microseconds longest_settle)
    : capturer_(std::move(first)),
      factory_(std::move(factory)),
      log_(std::move(log)),
      coalesce_(coalesce),
      longest_settle_(longest_settle) {}

CaptureDriver::Shot CaptureDriver::capture(std::chrono::milliseconds timeout) {
  Shot shot;
  if (coalesce_.count() > 0) {
    // Let the rest of a drawing land in this frame: capture once the damage
    // has stopped for `coalesce_`, at most `longest_settle_` after it began,
    // rather than half of it now and the rest a frame later.
    if (capturer_->wait_for_change(timeout)) capturer_->wait_for_quiet(coalesce_, longest_settle_);
    shot.result = capturer_->capture(pool_, std::chrono::milliseconds(0));
  } else {
    shot.result = capturer_->capture(pool_, timeout);
  }
  shot.at = Clock::now();
  return shot;
}

bool CaptureDriver::rebuild(const std::string& why, const Wait& wait) {
  {
    std::lock_guard lock(mu_);
    capturer_.reset();
    lost_ = why;
  }
  if (!factory_) {
    log_->error("video capture stopped: {}", why);
    return false;
  }
  log_->warn("video capture lost ({}): making a new capturer", why);
  auto fresh = reconnector_.run(
      [this]() -> std::optional<std::unique_ptr<capture::Capturer>> {
        if (auto made = factory_()) return made;
        return std::nullopt;
      },
      wait, [this](const std::string& reason) { log_->warn("video capture: still cannot capture: {}", reason); });
  if (!fresh) return false;
  const std::string what = (*fresh)->describe();
  {
    std::lock_guard lock(mu_);
    capturer_ = std::move(*fresh);
  }
  // After the capturer is in place: /readyz says ready from this line on.
  log_->info("video capture is back: {}", what);
  return true;
}

void CaptureDriver::wake() {
  std::lock_guard lock(mu_);
  if (capturer_) capturer_->wake();
}

std::optional<std::string> CaptureDriver::lost() const {
  std::lock_guard lock(mu_);
  if (capturer_) return std::nullopt;
  return lost_.empty() ? std::string("no capturer") : lost_;
}

}  // namespace voxl::stream
