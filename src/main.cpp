// voxl: flags -> Config -> run_daemon(). The only catch-all: start-up errors
// become one clear message and exit code 1.
#include <exception>
#include <iostream>

#include "app/config.h"
#include "app/daemon.h"
#include "base/logging.h"

int main(int argc, char** argv) {
  const auto parsed = voxl::app::parse_command_line(argc, argv);
  if (!parsed.config) return parsed.exit_code;
  auto log = voxl::make_stderr_logger("voxl");
  voxl::set_level(*log, parsed.config->log_level);
  for (const auto& notice : parsed.notices) log->warn("{}", notice.text);
  try {
    return voxl::app::run_daemon(*parsed.config, log);
  } catch (const std::exception& e) {
    std::cerr << "voxl: " << e.what() << "\n";
    return 1;
  }
}
