// What every HTTP and WebSocket session of one server shares. Owned by the
// server; lives as long as the io_context runs. Loop thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/logging.h"
#include "net/access_policy.h"

namespace voxl::stream {
class Hub;
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
  input::Interaction* interaction = nullptr;  // input, cursor, clipboard; none: watch only
};

}  // namespace voxl::net
