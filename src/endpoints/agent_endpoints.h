// The HTTP face of the agent endpoints: /screenshot, /wait, /record,
// /record/start, /record/stop and /input, as handlers for the server's endpoint
// table. Parameters are checked here (400 with a JSON error naming the
// parameter; unknown recording ids 404); the services do the work.
//
// Threads: the handlers run on the loop thread; the services must outlive
// the server's sessions.
#pragma once

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <optional>

#include "base/geometry.h"
#include "base/logging.h"
#include "endpoints/change_monitor.h"
#include "endpoints/record_service.h"
#include "endpoints/screenshot_service.h"
#include "endpoints/wait_spec.h"
#include "input/interaction.h"
#include "net/endpoint.h"

namespace voxl::endpoints {

struct AgentServices {
  boost::asio::io_context& io;
  ChangeMonitor& changes;
  ScreenshotService& screenshots;
  RecordService& recordings;
  Logger log;
  // For /input (503 without one, or once detached). Outlives the server.
  input::Interaction* interaction = nullptr;
  // /input and /wait take the picture's coordinates (what the stream and
  // /screenshot show), mapped to the desktop by the interaction's picture
  // mapping, which /screenshot keeps current too. `whole_screen`: the
  // picture is the whole screen (neither --capture-region nor
  // --capture-window), so /input checks positions against the screen's
  // size now and /wait without a region watches all of it; otherwise a
  // /wait without a region watches only the captured area.
  bool whole_screen = true;
  // The longest /wait timeout and idle (--max-wait-seconds).
  std::chrono::milliseconds max_wait = kDefaultMaxWait;
};

net::EndpointTable agent_endpoints(AgentServices services);

}  // namespace voxl::endpoints
