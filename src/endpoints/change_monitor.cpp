#include "endpoints/change_monitor.h"

#include <boost/asio/post.hpp>

#include <optional>
#include <string>
#include <utility>

namespace voxl::endpoints {

namespace asio = boost::asio;

struct ChangeMonitor::Entry {
  Entry(asio::io_context& io, const WaitSpec& spec, const ChangeLog& log, Done d)
      : waiter(spec, log, Clock::now()), timer(io), done(std::move(d)) {}
  Waiter waiter;
  asio::steady_timer timer;
  Done done;
};

ChangeMonitor::ChangeMonitor(asio::io_context& io, WatcherFactory make_watcher, Logger log)
    : io_(io), make_watcher_(std::move(make_watcher)), watcher_(make_watcher_()), retry_(io), log_sink_(std::move(log)) {
  pump(false);
  watch();
}

ChangeMonitor::~ChangeMonitor() { *alive_ = false; }

void ChangeMonitor::watch() {
  watcher_->async_wait([this, alive = alive_] {
    if (!*alive) return;
    pump(false);
    if (watcher_->failed()) return lost();
    watch();
  });
}

void ChangeMonitor::lost() {
  log_sink_->warn("the damage watcher lost the display: watching again once it is back");
  // Destroyed once the handler that found it dead has returned.
  asio::post(io_, [dead = std::move(watcher_)] {});
  reconnector_.restart();
  retry_later();
}

void ChangeMonitor::retry_later() {
  retry_.expires_after(reconnector_.next_wait());
  retry_.async_wait([this, alive = alive_](boost::system::error_code ec) {
    if (!ec && *alive) try_again();
  });
}

void ChangeMonitor::try_again() {
  // Taking the new server's screen is part of the attempt: if it throws, the
  // attempt failed and another follows after the next wait.
  const auto back = reconnector_.try_once(
      [this]() -> std::optional<capture::DamageWatcher*> {
        auto fresh = make_watcher_();
        if (!fresh || fresh->failed()) return std::nullopt;
        watcher_ = std::move(fresh);
        log_sink_->info("the damage watcher is back: /wait sees the screen again");
        // A new server: everything on its screen is new.
        if (!pending_since_) pending_since_ = Clock::now();
        pump(true);
        watch();
        return watcher_.get();
      },
      [this](const std::string& why) { log_sink_->warn("the damage watcher still cannot watch: {}", why); });
  if (!back) retry_later();
}

void ChangeMonitor::post_pump() {
  if (pump_posted_) return;
  pump_posted_ = true;
  asio::post(io_, [this, alive = alive_] {
    if (!*alive) return;
    pump_posted_ = false;
    pump(false);
  });
}

void ChangeMonitor::pump(bool take_now) {
  if (watcher_ && watcher_->poll() && !pending_since_) pending_since_ = Clock::now();
  if (!pending_since_ || !(take_now || !waiters_.empty())) return;
  std::vector<Rect> rects;
  if (!watcher_ || !watcher_->take(rects)) rects.assign(1, Rect{0, 0, 1 << 16, 1 << 16});
  const Clock::time_point at = *pending_since_;
  pending_since_.reset();
  log_.add(rects);
  std::vector<std::pair<uint64_t, WaitOutcome>> finished;
  const auto now = Clock::now();
  for (auto& [id, e] : waiters_) {
    e->waiter.on_change(rects, at);
    if (auto o = e->waiter.check(now, log_.seq())) finished.emplace_back(id, *o);
  }
  for (const auto& [id, o] : finished) finish(id, o);
  // Changes reported during that round trip are queued in the connection,
  // where the descriptor no longer shows them: look again from the loop.
  if (watcher_ && watcher_->poll()) {
    pending_since_ = Clock::now();
    if (!waiters_.empty()) post_pump();
  }
}

uint64_t ChangeMonitor::current_seq() {
  if (watcher_) watcher_->sync();
  pump(true);
  return log_.seq();
}

uint64_t ChangeMonitor::start_wait(const WaitSpec& spec, Done done) {
  if (waiters_.size() >= kMaxWaiters) return 0;
  const uint64_t id = ++next_id_;
  auto& e = waiters_.emplace(id, std::make_unique<Entry>(io_, spec, log_, std::move(done))).first->second;
  log_sink_->debug("wait {} started at seq {} ({} waiting)", id, log_.seq(), waiters_.size());
  if (auto o = e->waiter.check(Clock::now(), log_.seq())) {
    finish(id, *o);  // e.g. change&since= with a change already after since
    return id;
  }
  arm(id);
  return id;
}

void ChangeMonitor::arm(uint64_t id) {
  Entry& e = *waiters_.at(id);
  e.timer.expires_at(e.waiter.next_deadline());
  e.timer.async_wait([this, id, alive = alive_](boost::system::error_code ec) {
    if (ec || !*alive) return;
    const auto it = waiters_.find(id);
    if (it == waiters_.end()) return;
    if (auto o = it->second->waiter.check(Clock::now(), log_.seq())) return finish(id, *o);
    arm(id);
  });
}

void ChangeMonitor::finish(uint64_t id, const WaitOutcome& o) {
  const auto it = waiters_.find(id);
  if (it == waiters_.end()) return;
  std::unique_ptr<Entry> e = std::move(it->second);
  waiters_.erase(it);
  e->timer.cancel();
  Done done = std::move(e->done);
  log_sink_->debug("wait {} answered: {}", id, o.json());
  // The timer's handler may still be queued: it finds no waiter and returns.
  asio::post(io_, [done = std::move(done), o, alive = alive_] {
    if (*alive) done(o);
  });
}

void ChangeMonitor::cancel(uint64_t id) {
  const auto it = waiters_.find(id);
  if (it == waiters_.end()) return;
  it->second->timer.cancel();
  waiters_.erase(it);
  log_sink_->debug("wait {} cancelled: its client left ({} waiting)", id, waiters_.size());
}

}  // namespace voxl::endpoints
