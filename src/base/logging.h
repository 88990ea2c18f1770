// Loggers are passed explicitly (no registry lookups): whoever builds a
// component hands it the logger it should write to, so tests can capture it.
// spdlog loggers are thread-safe.
#pragma once

#include <memory>
#include <string>

#include <spdlog/logger.h>

namespace voxl {

using Logger = std::shared_ptr<spdlog::logger>;

// A logger named `name` writing to stderr (colour when it is a terminal).
Logger make_stderr_logger(const std::string& name);

// Sets the level from a name (trace, debug, info, warn, error); false if unknown.
bool set_level(spdlog::logger& log, const std::string& level);

}  // namespace voxl
