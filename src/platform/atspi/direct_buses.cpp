#include "platform/atspi/direct_buses.h"

namespace voxl::platform::atspi {

bool is_local_socket_address(std::string_view address) {
  constexpr std::string_view kUnix = "unix:";
  if (!address.starts_with(kUnix) || address.size() > 4096) return false;
  address.remove_prefix(kUnix.size());
  int places = 0;
  // key=value pairs between commas, none empty.
  for (bool more = true; more;) {
    const size_t comma = address.find(',');
    more = comma != std::string_view::npos;
    const std::string_view pair = address.substr(0, comma);
    if (more) address.remove_prefix(comma + 1);
    const size_t eq = pair.find('=');
    if (eq == std::string_view::npos || eq + 1 == pair.size()) return false;
    const std::string_view key = pair.substr(0, eq);
    const std::string_view value = pair.substr(eq + 1);
    // One address only: ";" would start another, of any kind.
    if (value.find(';') != std::string_view::npos) return false;
    if (key == "path" || key == "abstract") {
      ++places;
      if (key == "path" && value.front() != '/') return false;
    } else if (key != "guid") {
      return false;
    }
  }
  return places == 1;
}

DirectBuses::~DirectBuses() { reset(); }

void DirectBuses::open(const std::string& name, const std::string& address) {
  if (entries_.contains(name) || entries_.size() >= kMaxOpen || !is_local_socket_address(address)) return;
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

void DirectBuses::fail(const std::string& name) {
  if (const auto it = entries_.find(name); it != entries_.end()) it->second.failed = true;
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
