// The services behind the agent endpoints: the change monitor (/wait and
// X-Voxl-Seq, on a damage watcher of its own that reports on the loop), the
// screenshot worker (/screenshot, its own thread and capturer), the
// recordings (/record, sinks of the video hub) and the accessibility
// worker (/a11y, its own thread), plus the endpoint table that serves them
// and /input.
//
// Threads: the loop thread, except the screenshot and accessibility
// workers' own threads, joined on destruction. Lifetime: made after the hub and the interaction,
// before the server that serves endpoints(); destroyed after the server and
// before the input parts, the loop and the hub.
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "app/config.h"
#include "base/geometry.h"
#include "base/logging.h"
#include "base/metrics_text.h"
#include "net/endpoint.h"

namespace boost::asio {
class io_context;
}
namespace voxl::endpoints {
class A11yService;
class ChangeMonitor;
class ComputerUse;
class RecordService;
class ScreenshotService;
}  // namespace voxl::endpoints
namespace voxl::input {
class Interaction;
}
namespace voxl::stream {
class Hub;
}
namespace voxl::platform {
class DesktopEnvironment;
}

namespace voxl::app {

class AgentWiring {
 public:
  // `interaction` may be null (/input then answers 503).
  // Throws std::runtime_error when the desktop cannot be watched for damage.
  AgentWiring(const Config& config, boost::asio::io_context& io, platform::DesktopEnvironment& desktop,
              stream::Hub& hub, input::Interaction* interaction, const Logger& log);
  ~AgentWiring();
  AgentWiring(const AgentWiring&) = delete;
  AgentWiring& operator=(const AgentWiring&) = delete;

  // Handlers for the server; they refer to this object, which must outlive
  // the server.
  net::EndpointTable endpoints();
  // Recordings, the retroactive buffer, waiters and screen changes, for /metrics.
  void write_metrics(MetricsText& out) const;

 private:
  boost::asio::io_context& io_;
  Logger log_;
  input::Interaction* interaction_;
  bool whole_screen_;
  std::chrono::milliseconds max_wait_;
  std::unique_ptr<endpoints::ChangeMonitor> changes_;
  std::unique_ptr<endpoints::ScreenshotService> screenshots_;
  std::unique_ptr<endpoints::RecordService> recordings_;
  std::unique_ptr<endpoints::A11yService> a11y_;  // goes after computer_, which may call into it
  std::unique_ptr<endpoints::ComputerUse> computer_;  // made with the endpoints
};

}  // namespace voxl::app
