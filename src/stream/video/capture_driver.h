// The capture stage of the video thread: owns the capturer and its frame
// pool, waits for damage (and for a drawing to settle, so it lands in one
// frame), and when the capturer reports kReinit replaces it through the
// factory with one back-off (base/reconnector.h). It yields captures with
// their damage and the time they were taken.
//
// Threads: capture() and rebuild() on the video thread only; wake() and
// lost() from any thread (the capturer is swapped under a lock so a wake
// never reaches a destroyed one).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "base/logging.h"
#include "base/reconnector.h"
#include "capture/capturer.h"
#include "capture/frame_pool.h"

namespace voxl::stream {

class CaptureDriver {
 public:
  using Clock = std::chrono::steady_clock;
  // Makes a capturer; throws std::runtime_error when the desktop cannot be
  // opened (yet). Empty: a lost capturer is not remade.
  using Factory = std::function<std::unique_ptr<capture::Capturer>()>;
  // Waits `delay` and then while no one watches; false when stopping.
  using Wait = std::function<bool(Clock::duration delay)>;

  static constexpr std::chrono::milliseconds kFirstRebuild{250};
  static constexpr std::chrono::milliseconds kLongestRebuild{5000};

  // `coalesce`: capture once no damage has come for this long (at most
  // `longest_settle` after the first); zero captures at the first report.
  CaptureDriver(std::unique_ptr<capture::Capturer> first, Factory factory, Logger log,
                std::chrono::microseconds coalesce, std::chrono::microseconds longest_settle);

  struct Shot {
    capture::CaptureResult result;
    Clock::time_point at;  // when capture() returned
  };
  // Waits up to `timeout` for damage, then captures it.
  Shot capture(std::chrono::milliseconds timeout);

  // After kReinit (`why`): a new capturer, tried until one is made (true)
  // or `wait` says stop (false); false at once without a factory.
  [[nodiscard]] bool rebuild(const std::string& why, const Wait& wait);

  // Whether a lost capturer can be remade (there is a factory).
  bool can_rebuild() const { return bool(factory_); }

  void wake();
  // Why there is no capturer while a new one is being made, or nullopt.
  std::optional<std::string> lost() const;

 private:
  std::unique_ptr<capture::Capturer> capturer_;  // swapped on the video thread, under mu_
  Factory factory_;
  Logger log_;
  std::chrono::microseconds coalesce_;
  std::chrono::microseconds longest_settle_;
  capture::FramePool pool_{2};
  Reconnector reconnector_{kFirstRebuild, kLongestRebuild};
  mutable std::mutex mu_;
  std::string lost_;  // under mu_
};

}  // namespace voxl::stream
