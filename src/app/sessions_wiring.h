// Recorded sessions as the flags set them (--record-sessions DIR and the
// --record-sessions-* flags): the recorder
// (sessions/session_recorder.h), fed the audit trail's events, and the
// admins' endpoints that list and play them (sessions/sessions_service.h).
// Off without the flag.
//
// Threads: the loop thread, but note() (any thread). Lifetime: made before
// everything that reports events and before the server, after the video
// hub; destroyed after the server (the live session's last segment is
// written then).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "app/config.h"
#include "base/logging.h"
#include "base/metrics_text.h"
#include "net/endpoint.h"

namespace boost::asio {
class io_context;
}
namespace voxl::stream {
class Hub;
}
namespace voxl::sessions {
class SessionRecorder;
class SessionsService;
}

namespace voxl::app {

class SessionsWiring {
 public:
  // Throws std::runtime_error when the folder cannot be made or opened, or
  // when others may enter it.
  SessionsWiring(const Config& config, boost::asio::io_context& io, stream::Hub& hub, const Logger& log);
  ~SessionsWiring();
  SessionsWiring(const SessionsWiring&) = delete;
  SessionsWiring& operator=(const SessionsWiring&) = delete;

  bool enabled() const { return recorder_ != nullptr; }
  // An event for the session being recorded (base/audit_sink.h); any thread.
  void note(std::string event, nlohmann::json fields);
  // The /sessions endpoints; empty when off. They refer to this object.
  net::EndpointTable endpoints();
  void write_metrics(MetricsText& out) const;

 private:
  std::unique_ptr<sessions::SessionRecorder> recorder_;
  std::unique_ptr<sessions::SessionsService> service_;
};

}  // namespace voxl::app
