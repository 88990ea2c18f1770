#include "platform/system_journal.h"

namespace voxl::platform {

std::string journal_problem() { return "Windows has no systemd journal: use --audit-log FILE"; }

bool send_to_journal(std::string_view, const std::vector<std::pair<std::string, std::string>>&, std::string& error) {
  error = journal_problem();
  return false;
}

}  // namespace voxl::platform
