#include "input/control_handover.h"

#include <algorithm>

namespace voxl::input {

ControlHandover::Viewer* ControlHandover::find(uint64_t id) {
  const auto it = std::find_if(viewers_.begin(), viewers_.end(), [id](const Viewer& v) { return v.id == id; });
  return it == viewers_.end() ? nullptr : &*it;
}

const ControlHandover::Viewer* ControlHandover::oldest_requester() const {
  const Viewer* best = nullptr;
  for (const Viewer& v : viewers_)
    if (v.requested && (!best || v.requested < best->requested)) best = &v;
  return best;
}

bool ControlHandover::requesting(uint64_t id) const {
  return std::any_of(viewers_.begin(), viewers_.end(), [id](const Viewer& v) { return v.id == id && v.requested; });
}

void ControlHandover::join(uint64_t id, bool view_only) {
  if (id == 0 || find(id)) return;
  viewers_.push_back({id, view_only, 0});
}

void ControlHandover::leave(uint64_t id, Time now) {
  if (const Viewer* v = find(id); v && v->requested) ++changes_;
  std::erase_if(viewers_, [id](const Viewer& v) { return v.id == id; });
  if (holder_ == id) pass_on(now);
}

void ControlHandover::give(uint64_t id, Time now) {
  if (holder_ != id) ++changes_;
  holder_ = id;
  holder_input_at_ = now;
  if (Viewer* v = find(id); v && v->requested) {
    v->requested = 0;
    ++changes_;
  }
}

void ControlHandover::pass_on(Time now) {
  const Viewer* next = oldest_requester();
  give(next ? next->id : 0, now);
}

bool ControlHandover::on_input(uint64_t id, Time now) {
  const Viewer* v = find(id);
  if (!v || v->view_only) return false;
  if (holder_ == 0) give(id, now);
  if (holder_ != id) return false;
  holder_input_at_ = now;
  return true;
}

ControlHandover::Outcome ControlHandover::request(uint64_t id, Time now) {
  Viewer* v = find(id);
  if (!v) return Outcome::kUnknown;
  if (v->view_only) return Outcome::kRefused;
  if (holder_ == 0) {
    give(id, now);
  } else if (holder_ != id && !v->requested) {
    v->requested = ++request_serial_;
    ++changes_;
  }
  return Outcome::kDone;
}

ControlHandover::Outcome ControlHandover::release(uint64_t id, Time now) {
  Viewer* v = find(id);
  if (!v) return Outcome::kUnknown;
  if (holder_ == id) {
    pass_on(now);
  } else if (v->requested) {
    v->requested = 0;
    ++changes_;
  }
  return Outcome::kDone;
}

ControlHandover::Outcome ControlHandover::grant(uint64_t holder, uint64_t to, Time now) {
  if (holder == 0 || holder_ != holder) return Outcome::kRefused;
  const Viewer* v = find(to);
  if (!v || !v->requested) return Outcome::kUnknown;
  give(to, now);
  return Outcome::kDone;
}

ControlHandover::Outcome ControlHandover::deny(uint64_t holder, uint64_t to) {
  if (holder == 0 || holder_ != holder) return Outcome::kRefused;
  Viewer* v = find(to);
  if (!v || !v->requested) return Outcome::kUnknown;
  v->requested = 0;
  ++changes_;
  return Outcome::kDone;
}

std::optional<ControlHandover::Time> ControlHandover::deadline() const {
  if (timeout_.count() <= 0 || holder_ == 0 || !oldest_requester()) return std::nullopt;
  return holder_input_at_ + timeout_;
}

void ControlHandover::on_timer(Time now) {
  const auto due = deadline();
  if (due && now >= *due) pass_on(now);
}

}  // namespace voxl::input
