// An InputInjector that outlives the desktop's connection: when the one it
// holds has failed (the X server went away and maybe came back), the next
// call makes a new one and is made again on it, so input works again once
// the desktop is back, without a restart. While the desktop stays away,
// attempts back off from kFirstRetry to kLongestRetry (base/reconnector.h,
// a repeated reason logged once); only input calls trigger them, so an
// unused injector costs nothing.
//
// Threads: like the injector it wraps (the loop thread). Owns the injector.
// The clock is injected for tests.
#pragma once

#include <chrono>
#include <functional>
#include <utility>
#include <memory>
#include <string>

#include "base/logging.h"
#include "base/reconnector.h"
#include "input/input_injector.h"

namespace voxl::input {

class RecoveringInjector final : public InputInjector {
 public:
  using Clock = std::chrono::steady_clock;
  // Makes an injector on the desktop; throws std::runtime_error when it cannot.
  using Factory = std::function<std::unique_ptr<InputInjector>()>;

  static constexpr auto kFirstRetry = std::chrono::milliseconds(250);
  static constexpr auto kLongestRetry = std::chrono::seconds(5);

  RecoveringInjector(std::unique_ptr<InputInjector> first, Factory make, Logger log,
                     std::function<Clock::time_point()> now = Clock::now);

  InputStatus key(uint32_t keysym, bool down) override;
  InputStatus type_text(std::string_view utf8) override;
  void move(int x, int y) override;
  void button(int n, bool down) override;
  void scroll_notches(int dx, int dy) override;
  // The live injector's, else the last one seen.
  Size desktop_size() const override;
  bool caps_lock() override;
  bool num_lock() override;
  std::optional<Point> pointer_position() override;
  // Only while no injector could be made yet.
  bool failed() const override { return !current_; }

 private:
  // The injector to use now: the current one unless it failed, else a new
  // one if the back-off allows; null when there is none.
  InputInjector* live();
  // Runs `call` on the live injector; if the injector failed during it, once
  // more on a new one.
  template <class Call>
  auto with_live(Call call, decltype(call(std::declval<InputInjector&>())) none);

  std::unique_ptr<InputInjector> current_;
  Factory make_;
  Logger log_;
  std::function<Clock::time_point()> now_;
  Size last_size_;
  Clock::time_point next_try_{};
  Reconnector reconnector_{kFirstRetry, kLongestRetry};
};

}  // namespace voxl::input
