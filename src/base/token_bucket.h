// A token bucket: up to `burst` events at once, then one per `refill`.
// Used to bound what a client can make voxl do (key frames a viewer asks
// for). Pure logic; callers pass steady_clock times. One owner.
#pragma once

#include <chrono>

namespace voxl {

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts full at the first take().
  TokenBucket(int burst, Clock::duration refill) : burst_(burst), refill_(refill), tokens_(burst) {}

  // Takes a token if there is one.
  bool take(Clock::time_point now) {
    fill(now);
    if (tokens_ == 0) return false;
    --tokens_;
    return true;
  }

  // Whether take(now) would succeed.
  bool available(Clock::time_point now) {
    fill(now);
    return tokens_ > 0;
  }

  int burst() const { return burst_; }
  Clock::duration refill() const { return refill_; }

 private:
  void fill(Clock::time_point now) {
    if (!started_) {
      started_ = true;
      last_ = now;
      return;
    }
    if (tokens_ >= burst_) {
      last_ = now;  // a full bucket does not bank time
      return;
    }
    if (now <= last_ || refill_ <= Clock::duration::zero()) return;
    const auto gained = (now - last_) / refill_;
    if (gained <= 0) return;
    if (gained >= burst_ - tokens_) {
      tokens_ = burst_;
      last_ = now;
    } else {
      tokens_ += int(gained);
      last_ += gained * refill_;
    }
  }

  int burst_;
  Clock::duration refill_;
  int tokens_;
  bool started_ = false;
  Clock::time_point last_{};
};

}  // namespace voxl
