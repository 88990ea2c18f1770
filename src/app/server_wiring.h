// The HTTP/WebSocket server as the flags configure it (address, TLS, access
// rules, frame rate and bitrate limits), given the parts it serves: the
// video hub and /stats, desktop sound and the microphone when on, the
// interaction, the agent endpoints, the Files endpoints when offered, the
// recorded sessions' endpoints when on, and the resize controller when on.
//
// Threads: the loop thread. Lifetime: started once every part it serves
// exists; at the end stop() closes every session, and once the loop has run
// what that left the server is destroyed first, before everything its
// sessions held.
#pragma once

#include <memory>

#include "app/config.h"
#include "base/audit_sink.h"
#include "base/logging.h"
#include "net/server.h"

namespace voxl::audit {
class AuditLog;
}

namespace voxl::app {

class AgentWiring;
class FilesWiring;
class AudioWiring;
class InputWiring;
class VideoWiring;
class UsersWiring;
class SessionsWiring;

// What operators oversee by: the audit trail and the recorded sessions
// (null when off). Both outlive the servers.
struct Oversight {
  const audit::AuditLog* trail = nullptr;
  SessionsWiring* sessions = nullptr;
};

// Throws std::runtime_error when it cannot listen (address in use, bad
// address, unreadable certificate).
std::unique_ptr<net::Server> start_server(const Config& config, boost::asio::io_context& io, VideoWiring& video,
                                          AudioWiring& audio, InputWiring& input, AgentWiring& agents,
                                          FilesWiring& files, UsersWiring& users, stream::ResizeController* resize,
                                          const Logger& log, const AuditSink& audit = {},
                                          const Oversight& oversight = {});

// --metrics-addr: a second listener serving /metrics (the application's
// figures and `main`'s) and the probes without credentials; null when the
// flag is unset. Throws std::runtime_error when it cannot listen. Stopped
// and destroyed with the main server.
std::unique_ptr<net::Server> start_metrics_server(const Config& config, boost::asio::io_context& io,
                                                  VideoWiring& video, AgentWiring& agents, const net::Server& main,
                                                  const Logger& log, const Oversight& oversight = {});

}  // namespace voxl::app
