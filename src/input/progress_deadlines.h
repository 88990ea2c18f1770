// Deadlines for transfers that must keep moving: each transfer (a key) has
// the time it last made progress, and one idle for `idle_limit` or longer
// has expired. The caller drops expired transfers and frees what they hold;
// it arms a single timer at next_expiry() instead of polling. The clock is
// passed in, so the logic is tested without waiting.
//
// Threads: one thread at a time (the clipboard's loop thread). Bounded by
// the caller, which adds one key per transfer it already bounds.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <vector>

namespace voxl::input {

template <class Key>
class ProgressDeadlines {
 public:
  using Clock = std::chrono::steady_clock;

  explicit ProgressDeadlines(Clock::duration idle_limit) : idle_limit_(idle_limit) {}

  // `key` started or moved on at `now` (its deadline is pushed back).
  void progress(const Key& key, Clock::time_point now) { last_[key] = now; }
  // `key` finished or was dropped.
  void erase(const Key& key) { last_.erase(key); }
  bool contains(const Key& key) const { return last_.count(key) != 0; }
  size_t size() const { return last_.size(); }
  Clock::duration idle_limit() const { return idle_limit_; }

  // When the first of the transfers expires; nullopt when there are none.
  std::optional<Clock::time_point> next_expiry() const {
    std::optional<Clock::time_point> first;
    for (const auto& [key, at] : last_)
      if (!first || at + idle_limit_ < *first) first = at + idle_limit_;
    return first;
  }

  // Removes and returns every key idle for idle_limit or longer at `now`.
  std::vector<Key> take_expired(Clock::time_point now) {
    std::vector<Key> out;
    for (auto it = last_.begin(); it != last_.end();) {
      if (now - it->second >= idle_limit_) {
        out.push_back(it->first);
        it = last_.erase(it);
      } else {
        ++it;
      }
    }
    return out;
  }

 private:
  Clock::duration idle_limit_;
  std::map<Key, Clock::time_point> last_;
};

}  // namespace voxl::input
