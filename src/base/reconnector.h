// Attempts to reach something that went away (a display server, an audio
// server, a listening socket) until one succeeds: each failure waits a
// growing back-off (base/backoff.h) before the next, and the caller's wait
// may end the attempts (the component is stopping). A reason repeated is
// reported once, so a long outage writes one line, not one per attempt.
//
// Two shapes over the same policy: run() blocks its thread through the
// waits (the video capture driver); restart(), next_wait() and try_once()
// take one step at a time for a caller that waits on its own timer, clock
// or condition (the loop thread's parts: input/rebuilt_part.h,
// input/recovering_injector.h, endpoints/change_monitor.h; the audio
// thread, audio/audio_capture.cpp). A caller whose attempt ends
// asynchronously (the listener's accept, net/http_server.cpp) tells each
// failure to failed() itself.
//
// Pure control flow over the caller's functions; one owner, not
// thread-safe (it runs on the thread that reconnects).
#pragma once

#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "base/backoff.h"

namespace voxl {

class Reconnector {
 public:
  using Duration = Backoff::Duration;

  Reconnector(Duration first, Duration longest) : backoff_(first, longest) {}

  // Calls wait(delay) then attempt() until attempt() returns a value
  // (returned) or wait() returns false (an empty value: nullopt, null). attempt() may also say
  // "not yet" by returning nullopt or throwing std::exception; a reason
  // that differs from the last one goes to failed(reason). The back-off
  // starts again from its first wait at every call.
  template <class Attempt, class Wait, class Failed>
  auto run(Attempt attempt, Wait wait, Failed failed) -> decltype(attempt()) {
    restart();
    for (;;) {
      if (!wait(next_wait())) return {};
      if (auto got = try_once(attempt, failed)) return got;
    }
  }

  // One step at a time. restart() when the thing is lost: the back-off
  // starts again from its first wait and no reason has been reported.
  void restart() {
    backoff_.reset();
    last_reason_.clear();
    failing_ = false;
  }
  // Whether an attempt failed since restart(): the thing is still away.
  [[nodiscard]] bool failing() const { return failing_; }
  // The wait before the next attempt; each call doubles the one after, up
  // to the longest.
  Duration next_wait() { return backoff_.next(); }
  // One attempt, as run() makes it: attempt()'s value, or an empty one
  // when it returned empty or threw std::exception; a thrown reason goes
  // to failed(reason, report) below.
  template <class Attempt, class Report>
  auto try_once(Attempt&& attempt, Report&& report) -> decltype(attempt()) {
    try {
      if (auto got = attempt()) return got;
      failing_ = true;
    } catch (const std::exception& e) {
      failed(e.what(), report);
    }
    return {};
  }
  // An attempt failed for `reason`: report(reason) when it differs from the
  // last one since restart().
  template <class Report>
  void failed(const std::string& reason, Report&& report) {
    failing_ = true;
    if (last_reason_ == reason) return;
    last_reason_ = reason;
    report(reason);
  }

 private:
  Backoff backoff_;
  std::string last_reason_;  // since restart()
  bool failing_ = false;      // since restart()
};

}  // namespace voxl
