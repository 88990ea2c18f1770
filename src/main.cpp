// voxl: flags -> Config -> run_daemon(). The only catch-all: start-up errors
// become one clear message and exit code 1.
#include <exception>
#include <iostream>
#include <span>
#include <string_view>

#include "app/audit_verify_command.h"
#include "app/config.h"
#include "app/config_check.h"
#include "app/daemon.h"
#include "app/hash_password_command.h"
#include "base/logging.h"

namespace {

// --check-config: problems to stderr (exit 2), else the summary to stdout.
int report(const voxl::app::ParseOutcome& parsed) {
  const voxl::app::ConfigReport r = voxl::app::check_config(*parsed.config);
  for (const auto& notice : parsed.notices) std::cerr << "voxl: warning: " << notice.text << "\n";
  for (const std::string& p : r.problems) std::cerr << "voxl: " << p << "\n";
  if (!r.problems.empty()) return 2;
  std::cout << "voxl: the configuration is valid\n";
  for (const std::string& line : r.summary) std::cout << "  " << line << "\n";
  if (!parsed.from_environment.empty()) {
    std::cout << "  from the environment:";
    for (const std::string& v : parsed.from_environment) std::cout << " " << v;
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "audit-verify")
    return voxl::app::audit_verify_command(std::span<char* const>(argv + 2, size_t(argc - 2)));
  if (argc >= 2 && std::string_view(argv[1]) == "hash-password")
    return voxl::app::hash_password_command(std::span<char* const>(argv + 2, size_t(argc - 2)));
  const auto parsed = voxl::app::parse_command_line(argc, argv);
  if (!parsed.config) return parsed.exit_code;
  if (parsed.config->check_config) return report(parsed);
  auto log = voxl::make_stderr_logger("voxl");
  voxl::set_level(*log, parsed.config->log_level);
  for (const auto& notice : parsed.notices) log->warn("{}", notice.text);
  if (!parsed.from_environment.empty()) {
    std::string names;
    for (const std::string& v : parsed.from_environment) names += (names.empty() ? "" : ", ") + v;
    log->info("settings from the environment: {}", names);
  }
  try {
    return voxl::app::run_daemon(*parsed.config, log);
  } catch (const std::exception& e) {
    std::cerr << "voxl: " << e.what() << "\n";
    return 1;
  }
}
