#include "platform/system_journal.h"

#include <sys/stat.h>
#include <sys/uio.h>

#include <cstring>

#include <systemd/sd-journal.h>

namespace voxl::platform {

namespace {

constexpr const char* kSocket = "/run/systemd/journal/socket";

}  // namespace

std::string journal_problem() {
  struct stat st{};
  if (::stat(kSocket, &st) != 0) return std::string("the journal's socket ") + kSocket + " is not there: " +
                                        std::strerror(errno) + " (is systemd-journald running?)";
  if (!S_ISSOCK(st.st_mode)) return std::string(kSocket) + " is not a socket";
  return {};
}

bool send_to_journal(std::string_view message, const std::vector<std::pair<std::string, std::string>>& fields,
                     std::string& error) {
  std::vector<std::string> items;
  items.reserve(fields.size() + 1);
  items.push_back("MESSAGE=" + std::string(message));
  for (const auto& [name, value] : fields) items.push_back(name + "=" + value);
  std::vector<iovec> iov(items.size());
  for (size_t i = 0; i < items.size(); ++i) iov[i] = {items[i].data(), items[i].size()};
  const int r = sd_journal_sendv(iov.data(), int(iov.size()));
  if (r >= 0) return true;
  error = std::string("the journal refused the entry: ") + std::strerror(-r);
  return false;
}

}  // namespace voxl::platform
