#include "platform/atspi/direct_buses.h"

#include <sys/stat.h>
#include <unistd.h>

namespace voxl::platform::atspi {

std::optional<std::string> local_socket_path(std::string_view address) {
  constexpr std::string_view kUnix = "unix:";
  if (!address.starts_with(kUnix) || address.size() > 4096) return std::nullopt;
  address.remove_prefix(kUnix.size());
  std::optional<std::string> path;
  // key=value pairs between commas, none empty.
  for (bool more = true; more;) {
    const size_t comma = address.find(',');
    more = comma != std::string_view::npos;
    const std::string_view pair = address.substr(0, comma);
    if (more) address.remove_prefix(comma + 1);
    const size_t eq = pair.find('=');
    if (eq == std::string_view::npos || eq + 1 == pair.size()) return std::nullopt;
    const std::string_view key = pair.substr(0, eq);
    const std::string_view value = pair.substr(eq + 1);
    // One address only (";" would start another, of any kind), and no
    // escapes: atk-bridge writes its path as it is.
    if (value.find_first_of(";%") != std::string_view::npos) return std::nullopt;
    if (key == "path" && !path && value.front() == '/')
      path = std::string(value);
    else if (key != "guid")
      return std::nullopt;
  }
  return path;
}

DirectBuses::~DirectBuses() { reset(); }

void DirectBuses::open(const std::string& name, const std::string& address) {
  if (entries_.contains(name) || entries_.size() >= kMaxOpen) return;
  const auto path = local_socket_path(address);
  // Only a socket of voxl's own user: an application may name any socket
  // on the machine, and voxl may run as root. (atk-bridge itself refuses
  // a connection from another user.)
  struct stat st {};
  if (!path || lstat(path->c_str(), &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != geteuid()) {
    entries_[name] = Entry{nullptr, true};
    return;
  }
  sd_bus* bus = nullptr;
  int r = sd_bus_new(&bus);
  if (r >= 0) r = sd_bus_set_address(bus, address.c_str());
  if (r >= 0) r = sd_bus_start(bus);
  if (r < 0) {
    sd_bus_flush_close_unref(bus);
    entries_[name] = Entry{nullptr, true};
    return;
  }
  entries_[name] = Entry{bus, false};
}

sd_bus* DirectBuses::find(const std::string& name) const {
  const auto it = entries_.find(name);
  return it == entries_.end() || it->second.failed ? nullptr : it->second.bus;
}

void DirectBuses::fail(sd_bus* bus) {
  for (auto& [name, e] : entries_)
    if (e.bus == bus) e.failed = true;
}

void DirectBuses::close_failed() {
  for (auto& [name, e] : entries_)
    if (e.failed && e.bus) e.bus = sd_bus_close_unref(e.bus);
}

std::vector<sd_bus*> DirectBuses::all() const {
  std::vector<sd_bus*> out;
  for (const auto& [name, e] : entries_)
    if (e.bus && !e.failed) out.push_back(e.bus);
  return out;
}

void DirectBuses::reset() {
  for (auto& [name, e] : entries_)
    if (e.bus) sd_bus_close_unref(e.bus);
  entries_.clear();
}

}  // namespace voxl::platform::atspi
