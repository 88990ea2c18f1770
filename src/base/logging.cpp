#include "base/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace voxl {

Logger make_stderr_logger(const std::string& name) {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  auto log = std::make_shared<spdlog::logger>(name, std::move(sink));
  log->set_pattern("%Y-%m-%d %H:%M:%S.%e %^%-5l%$ [%n] %v");
  return log;
}

bool set_level(spdlog::logger& log, const std::string& level) {
  const auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") return false;
  log.set_level(lvl);
  return true;
}

}  // namespace voxl
