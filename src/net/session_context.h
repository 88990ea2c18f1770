// What every HTTP and WebSocket session of one server shares. Owned by the
// server; lives as long as the io_context runs. Loop thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "base/logging.h"
#include "base/metrics_text.h"
#include "net/access_policy.h"
#include "net/auth_throttle.h"
#include "net/endpoint.h"
#include "net/forwarded.h"
#include "net/server_settings.h"
#include "net/session_registry.h"
#include "stream/viewer/bitrate_controller.h"
#include "stream/pacing/link_shares.h"
#include "stream/viewer/viewer_metrics.h"
#include "stream/viewer/viewer_services.h"

namespace voxl::audio {
class Microphone;
}

namespace voxl::stream {
class Hub;
class AudioHub;
class ResizeController;
}
namespace voxl::input {
class Interaction;
}

namespace voxl::net {

class SignIns;

struct SessionContext {
  ServerSettings settings;
  // What every viewer session is given (its hub and log set by the server).
  stream::ViewerServices viewers;
  Logger log;
  uint64_t viewers_seen = 0;  // numbers viewers in the logs
  stream::LinkShares link_shares{};  // the viewers and transfers by address
  AuthThrottle auth_throttle{};  // back-off for addresses sending wrong credentials
  std::function<AuthThrottle::Clock::time_point()> now = &AuthThrottle::Clock::now;  // tests set a fake
  SessionRegistry* sessions = nullptr;  // the server's live sessions; set by the server, outlives them
  SignIns* sign_ins = nullptr;  // the users file's sign-ins (--users-file); outlives the server
  stream::ViewerMetrics viewer_metrics{};
  double started_unix = 0;  // when the server started, Unix seconds
  uint64_t auth_failures = 0;  // requests refused for a wrong credential
  uint64_t connections_refused = 0;  // closed at accept: over a connection limit
};

}  // namespace voxl::net
