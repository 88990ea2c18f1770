// Wires voxl together and runs it until SIGINT or SIGTERM: the desktop
// from the platform seam (on Linux a private Xvfb when none is given, with
// --exec's program in it), the video and sound sides, input, the agent
// services and the HTTP/WebSocket server, each made by its *_wiring unit
// from the desktop's services. Teardown stops the threads and the server's
// sessions, then destroys everything in reverse order of construction.
//
// Threads: run_daemon() runs the loop thread (the io_context) on the
// calling thread; the video pipeline, audio capture and screenshot worker
// have their own.
#pragma once

#include "app/config.h"
#include "base/logging.h"

namespace voxl::app {

// Returns the process exit code. Throws std::runtime_error for start-up
// failures (no display, Xvfb would not start, port in use), which main
// reports.
int run_daemon(const Config& config, const Logger& log);

}  // namespace voxl::app
