#include "endpoints/wait_spec.h"

namespace voxl::endpoints {

std::string WaitOutcome::json() const {
  return std::string("{\"changed\":") + (changed ? "true" : "false") + ",\"timed_out\":" +
         (timed_out ? "true" : "false") + ",\"seq\":" + std::to_string(seq) +
         ",\"waited_ms\":" + std::to_string(waited_ms) + "}";
}

std::optional<WaitSpec> parse_wait(const net::Query& q, uint64_t current_seq, net::ParamError& error,
                                   std::chrono::milliseconds max_wait) {
  if (auto u = q.unknown({"idle", "change", "region", "timeout", "since"})) {
    error = {*u, "unknown parameter (known: idle, change, region, timeout, since)"};
    return std::nullopt;
  }
  WaitSpec s;
  int64_t idle = s.idle.count(), timeout = s.timeout.count();
  if (!q.flag("change", s.change, error) || !q.rect("region", s.region, error)) return std::nullopt;
  if (!q.integer("idle", 0, max_wait.count(), idle, error) || !q.integer("timeout", 0, max_wait.count(), timeout, error)) {
    error.message += " (milliseconds; the most is --max-wait-seconds=" +
                     std::to_string(std::chrono::duration_cast<std::chrono::seconds>(max_wait).count()) + ")";
    return std::nullopt;
  }
  if (q.has("since")) {
    uint64_t since = 0;
    if (!q.unsigned_integer("since", since, error)) return std::nullopt;
    if (since > current_seq) {
      error = {"since", "is ahead of the current seq " + std::to_string(current_seq) +
                            " (a seq from before a restart?)"};
      return std::nullopt;
    }
    s.since = since;
  }
  if (s.change && q.has("idle")) {
    error = {"idle", "cannot be combined with change"};
    return std::nullopt;
  }
  s.idle = std::chrono::milliseconds(idle);
  s.timeout = std::chrono::milliseconds(timeout);
  return s;
}

Waiter::Waiter(const WaitSpec& spec, const ChangeLog& log, Clock::time_point start)
    : spec_(spec), start_(start), last_change_(start) {
  if (spec_.region) watched_ = block_aligned(*spec_.region);
  if (spec_.since) changed_before_ = log.changed_since(*spec_.since, spec_.region);
}

void Waiter::on_change(const std::vector<Rect>& rects, Clock::time_point t) {
  if (!touches(rects, watched_)) return;
  changed_ = true;
  last_change_ = std::max(last_change_, t);
}

std::optional<WaitOutcome> Waiter::check(Clock::time_point now, uint64_t seq) const {
  WaitOutcome o;
  o.changed = changed_ || changed_before_;
  o.seq = seq;
  o.waited_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - start_).count();
  const bool done = spec_.change ? o.changed : now - last_change_ >= spec_.idle;
  if (done) return o;
  if (now - start_ >= spec_.timeout) {
    o.timed_out = true;
    return o;
  }
  return std::nullopt;
}

Clock::time_point Waiter::next_deadline() const {
  const auto give_up = start_ + spec_.timeout;
  return spec_.change ? give_up : std::min(give_up, last_change_ + spec_.idle);
}

}  // namespace voxl::endpoints
