// Wires voxl together and runs it until SIGINT or SIGTERM: the display
// (a private Xvfb when none is given, with --exec's program in it), the
// video pipeline, the hub and the HTTP/WebSocket server.
//
// Threads: run_daemon() runs the loop thread (the io_context) on the
// calling thread; the pipeline has its own.
#pragma once

#include "app/config.h"
#include "base/logging.h"

namespace voxl::app {

// Returns the process exit code. Throws std::runtime_error for start-up
// failures (no display, Xvfb would not start, port in use), which main
// reports.
int run_daemon(const Config& config, const Logger& log);

}  // namespace voxl::app
