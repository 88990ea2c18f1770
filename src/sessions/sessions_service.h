// The recorded sessions' endpoints (--record-sessions), for admins only
// (the users file's admin right; the token and the built-in user have it):
//
//   GET    /sessions/list                      the sessions, newest first
//   GET    /sessions/info?id=                  one session: segments and events
//   DELETE /sessions/info?id=                  removes a session (not the live one)
//   GET    /sessions/video?id=&segment=        a segment's MP4 (Range, HEAD)
//   GET    /sessions/download?id=              the session's folder as a zip
//
// The page that plays them is sessions.html (web/src/sessions/). Pages of
// other sites and view-only sign-ins get 403; every path is the folder's
// FileJail's, from an id and an index checked first. Reads of a recording
// (video, download) are in the audit trail.
//
// Threads: construct, handle requests and destroy on the loop thread; the
// disk work runs on a DiskWorker of its own, whose answers come back to
// the loop. Lifetime: outlives the server's sessions.
#pragma once

#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>

#include "base/logging.h"
#include "net/endpoint.h"
#include "platform/file_jail.h"
#include "sessions/session_store.h"

namespace voxl::sessions {

class SessionsService {
 public:
  // `live`: what the recorder is doing now (loop thread).
  SessionsService(boost::asio::io_context& io, std::shared_ptr<const platform::FileJail> jail,
                  std::function<LiveState()> live, Logger log);
  ~SessionsService();
  SessionsService(const SessionsService&) = delete;
  SessionsService& operator=(const SessionsService&) = delete;

  net::EndpointTable endpoints();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace voxl::sessions
