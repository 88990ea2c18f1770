#include "app/host_names.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>

namespace voxl::app {

namespace {

void add(std::vector<std::string>& names, std::string name) {
  for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  while (!name.empty() && name.back() == '.') name.pop_back();
  if (name.empty() || std::find(names.begin(), names.end(), name) != names.end()) return;
  names.push_back(std::move(name));
}

}  // namespace

std::vector<std::string> machine_host_names() {
  std::vector<std::string> names;
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return names;
  add(names, host);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_flags = AI_CANONNAME;
  addrinfo* found = nullptr;
  if (getaddrinfo(host, nullptr, &hints, &found) == 0) {
    for (const addrinfo* a = found; a != nullptr; a = a->ai_next)
      if (a->ai_canonname != nullptr) add(names, a->ai_canonname);
    freeaddrinfo(found);
  }
  return names;
}

}  // namespace voxl::app
