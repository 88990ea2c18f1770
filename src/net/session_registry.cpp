#include "net/session_registry.h"

#include <vector>

namespace voxl::net {

uint64_t SessionRegistry::add(std::weak_ptr<ClosableSession> session) {
  if (stopped_) {
    if (auto s = session.lock()) s->shut_down();
    return 0;
  }
  if (live_.size() >= bound_) std::erase_if(live_, [](const auto& entry) { return entry.second.expired(); });
  const uint64_t id = ++next_id_;
  live_.emplace(id, std::move(session));
  return id;
}

void SessionRegistry::stop() {
  stopped_ = true;
  // Shutting one down may destroy it (and so remove it from live_): work
  // on strong references taken first.
  std::vector<std::shared_ptr<ClosableSession>> sessions;
  sessions.reserve(live_.size());
  for (const auto& [id, weak] : live_)
    if (auto s = weak.lock()) sessions.push_back(std::move(s));
  for (const auto& s : sessions) s->shut_down();
}

}  // namespace voxl::net
