// What the agent endpoints (/screenshot, /wait, /record, /input, /computer,
// /cursor, /mcp) are served from: the services and the facts about the
// picture they share, and the reading of where the picture and the
// pointer are now.
//
// Threads: the loop thread; the services must outlive the server's
// sessions.
#pragma once

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

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

// Where the picture (the stream's, /screenshot's) lies on the desktop now:
// the interaction's mapping, which follows every frame; on the whole
// screen at the screen's own size now, which frames follow too but only
// while someone watches.
input::PictureMapping picture_now(const AgentServices& s);

// Where the pointer is in the picture's coordinates (it may lie outside
// the picture: a captured region or window); nullopt without an injector
// or when the desktop cannot tell.
std::optional<Point> pointer_in_picture(const AgentServices& s, const input::PictureMapping& picture);

// A 400 naming the bad parameter.
net::EndpointReply bad_parameter(const net::ParamError& e);

// The header that carries the change counter a picture or a wait saw.
inline constexpr const char* kSeqHeader = "X-Voxl-Seq";

// The request's query, with any parameter not in `known` refused: on a
// bad one `reply` gets a 400 naming it and the result is nullopt.
std::optional<net::Query> endpoint_query(const net::EndpointRequest& req, const std::vector<std::string>& known,
                                    const net::ReplyFn& reply);

}  // namespace voxl::endpoints
