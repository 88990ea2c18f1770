// Watches the screen for /wait and numbers its changes (the seq of
// X-Voxl-Seq and /wait), with no viewer, no capture and no encode: a
// DamageWatcher on its own display connection that the loop waits on
// (DamageWatcher::async_wait). Always on, because it costs nothing when no one asks: after a
// change it fetches where it was only while someone waits, so an agent-free
// desktop pays one notification per idle-to-busy transition; and a seq
// handed out earlier keeps its exact meaning however long the gap until the
// next /wait?since=.
//
// When the watcher loses the display (the X server went away), the monitor
// makes a new one, backing off from kFirstRetry to kLongestRetry while the
// display stays away (base/reconnector.h, a repeated reason logged once);
// the new server's screen counts as one change of the whole screen, and the
// seq goes on from where it was.
//
// Threads: the loop thread only; construct and destroy there, before the
// io_context is destroyed. Blocking: current_seq() and start_wait() make one
// round trip to the display (tens of microseconds on a local socket) so that
// everything drawn before the request is counted before it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "base/logging.h"
#include "base/reconnector.h"
#include "capture/damage_watcher.h"
#include "endpoints/change_log.h"
#include "endpoints/wait_spec.h"

namespace voxl::endpoints {

class ChangeMonitor {
 public:
  using Done = std::function<void(const WaitOutcome&)>;
  // Makes a watcher reporting on the monitor's io_context; throws
  // std::runtime_error when the display cannot be watched.
  using WatcherFactory = std::function<std::unique_ptr<capture::DamageWatcher>()>;
  static constexpr size_t kMaxWaiters = 4096;
  static constexpr auto kFirstRetry = std::chrono::milliseconds(250);
  static constexpr auto kLongestRetry = std::chrono::seconds(5);

  // Makes the first watcher at once (its exception propagates).
  ChangeMonitor(boost::asio::io_context& io, WatcherFactory make_watcher, Logger log);
  ~ChangeMonitor();
  ChangeMonitor(const ChangeMonitor&) = delete;
  ChangeMonitor& operator=(const ChangeMonitor&) = delete;

  // The seq that covers everything drawn before this call.
  uint64_t current_seq();
  const ChangeLog& changes() const { return log_; }

  // Starts a wait (call current_seq() first so `spec.since` is judged on an
  // up-to-date log). `done` runs once, on the loop, never from inside this
  // call. Returns 0 (and never calls `done`) when kMaxWaiters are waiting.
  uint64_t start_wait(const WaitSpec& spec, Done done);
  void cancel(uint64_t id);  // the client left; `done` is not called
  size_t waiters() const { return waiters_.size(); }

 private:
  struct Entry;
  void watch();
  void lost();
  void retry_later();
  void try_again();
  void pump(bool take_now);
  void post_pump();
  void arm(uint64_t id);
  void finish(uint64_t id, const WaitOutcome& o);

  boost::asio::io_context& io_;
  WatcherFactory make_watcher_;
  std::unique_ptr<capture::DamageWatcher> watcher_;  // null while the display is away
  boost::asio::steady_timer retry_;
  Reconnector reconnector_{kFirstRetry, kLongestRetry};
  Logger log_sink_;
  ChangeLog log_;
  std::optional<Clock::time_point> pending_since_;  // notified, not yet taken
  std::map<uint64_t, std::unique_ptr<Entry>> waiters_;
  uint64_t next_id_ = 0;
  bool pump_posted_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::endpoints
