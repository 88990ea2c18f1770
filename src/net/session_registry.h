// The live HTTP and WebSocket sessions of one server, so that stopping the
// server closes them instead of leaving them to the io_context's end. Holds
// weak references only: a session lives by its own pending handlers and
// leaves the registry when it is destroyed. Bounded by the connection
// limits: every registered session holds one of the server's connections
// (ConnectionToken), and entries of sessions already gone are dropped
// before the map grows past that bound.
//
// Threads: loop thread only. The registry outlives its sessions (they hold
// the SessionContext that contains it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace voxl::net {

class ClosableSession {
 public:
  // The server is stopping: close now (a viewer first sends the WebSocket
  // close 1001 "going away"), cancel pending work, drop the socket. Must
  // not throw; called at most once per session.
  virtual void shut_down() noexcept = 0;

 protected:
  ~ClosableSession() = default;
};

class SessionRegistry {
 public:
  explicit SessionRegistry(size_t bound) : bound_(bound) {}
  SessionRegistry(const SessionRegistry&) = delete;
  SessionRegistry& operator=(const SessionRegistry&) = delete;

  // Registers a live session; its id for remove(). When the server is
  // already stopping the session is shut down at once (and 0 returned).
  uint64_t add(std::weak_ptr<ClosableSession> session);
  // From the session's destructor.
  void remove(uint64_t id) { live_.erase(id); }

  // Shuts down every live session; from now on add() shuts them down too.
  void stop();
  bool stopped() const { return stopped_; }
  size_t size() const { return live_.size(); }

 private:
  size_t bound_;
  std::unordered_map<uint64_t, std::weak_ptr<ClosableSession>> live_;
  uint64_t next_id_ = 0;
  bool stopped_ = false;
};

}  // namespace voxl::net
