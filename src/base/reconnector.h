// Attempts to reach something that went away (a display server, an audio
// server, a listening socket) until one succeeds: each failure waits a
// growing back-off (base/backoff.h) before the next, and the caller's wait
// may end the attempts (the component is stopping). A reason repeated is
// reported once, so a long outage writes one line, not one per attempt.
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
  // (returned) or wait() returns false (nullopt). attempt() may also say
  // "not yet" by returning nullopt or throwing std::exception; a reason
  // that differs from the last one goes to failed(reason). The back-off
  // starts again from its first wait at every call.
  template <class Attempt, class Wait, class Failed>
  auto run(Attempt attempt, Wait wait, Failed failed) -> decltype(attempt()) {
    backoff_.reset();
    std::string last;
    for (;;) {
      if (!wait(backoff_.next())) return std::nullopt;
      try {
        if (auto got = attempt()) return got;
      } catch (const std::exception& e) {
        if (last != e.what()) failed(std::string(e.what()));
        last = e.what();
      }
    }
  }

 private:
  Backoff backoff_;
};

}  // namespace voxl
