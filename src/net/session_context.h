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
#include "net/session_registry.h"
#include "stream/bitrate_controller.h"
#include "stream/link_shares.h"
#include "stream/viewer_metrics.h"

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

struct SessionContext {
  stream::Hub& hub;
  AccessSettings access;
  bool tls = false;
  Logger log;
  std::function<std::string()> stats_json;
  uint64_t viewers_seen = 0;  // numbers viewers in the logs
  EndpointTable endpoints;  // paths answered outside src/net (agent endpoints)
  int max_fps = 60;            // the stream's frame rate cap
  stream::BitrateLimits bitrate;
  stream::AudioHub* audio_hub = nullptr;  // desktop sound; null when disabled
  audio::Microphone* microphone = nullptr;  // viewers' microphones; null when disabled
  input::Interaction* interaction = nullptr;  // input, cursor, clipboard; none: watch only
  stream::ResizeController* resize = nullptr;  // none: --enable-resize is off
  bool files = false;  // the Files panel's endpoints are served
  // Streamed downloads to an address where a viewer watches are paced to
  // what the picture leaves (--pace-transfers); the viewers and transfers
  // by address.
  bool pace_transfers = true;
  int stripes = 1;  // --stripes, said in the hello
  stream::LinkShares link_shares{};
  AuthThrottle auth_throttle{};  // back-off for addresses sending wrong credentials
  std::function<AuthThrottle::Clock::time_point()> now = &AuthThrottle::Clock::now;  // tests set a fake
  SessionRegistry* sessions = nullptr;  // the server's live sessions; set by the server, outlives them
  // Peers whose X-Forwarded-Proto, -Host and -For are believed
  // (--trusted-proxies); empty: none.
  std::vector<AddressRange> trusted_proxies{};
  // /metrics: the server's own figures are added to what this writes.
  std::function<void(MetricsText&)> metrics{};
  // /readyz: why the server cannot serve a picture now, or nullopt when it
  // can. Empty: always ready.
  std::function<std::optional<std::string>()> not_ready{};
  stream::ViewerMetrics viewer_metrics{};
  // A listener for /metrics and the probes alone, without credentials
  // (--metrics-addr): everything else is a 404, and no WebSocket.
  bool metrics_only = false;
  double started_unix = 0;  // when the server started, Unix seconds
  uint64_t auth_failures = 0;  // requests refused for a wrong credential
  uint64_t connections_refused = 0;  // closed at accept: over a connection limit
};

}  // namespace voxl::net
