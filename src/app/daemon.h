// Wires the pieces together and runs until SIGINT or SIGTERM. For now it
// captures the display damage-driven at up to --framerate and reports what
// it captured; the encoder, server and client attach here next.
//
// Threads: run() blocks the calling (main) thread, which waits for signals;
// capture runs on its own thread.
#pragma once

#include "app/config.h"
#include "base/logging.h"

namespace voxl::app {

// Returns the process exit code. Throws std::runtime_error for start-up
// failures (no display, Xvfb would not start), which main reports.
int run_daemon(const Config& config, const Logger& log);

}  // namespace voxl::app
